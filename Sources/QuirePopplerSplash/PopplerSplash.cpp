// libpoppler-cpp's page_renderer (Splash) behind the C API in quire_poppler_splash.h.
#include "quire_poppler_splash.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-image.h>
#include <poppler/cpp/poppler-page.h>
#include <poppler/cpp/poppler-page-renderer.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>

struct quire_splash_document {
    std::unique_ptr<poppler::document> document;
};

namespace {

void silence(const std::string &, void *) {}

struct Silencer {
    Silencer() { poppler::set_debug_error_function(silence, nullptr); }
};

void silenceOnce() { static Silencer silencer; }

// Width and height of the crop box as shown (landscape/seascape pages are turned).
bool displayedSize(const poppler::page &page, double &width, double &height) {
    poppler::rectf box = page.page_rect(poppler::crop_box);
    width = box.width();
    height = box.height();
    if (width < 0) width = -width;
    if (height < 0) height = -height;
    switch (page.orientation()) {
    case poppler::page::landscape:
    case poppler::page::seascape: {
        double swap = width;
        width = height;
        height = swap;
        break;
    }
    default:
        break;
    }
    return width > 0 && height > 0;
}

} // namespace

extern "C" int quire_splash_open(const char *path, const char *password, quire_splash_document **out) {
    *out = nullptr;
    try {
        silenceOnce();
        std::string secret = password ? password : "";
        std::unique_ptr<poppler::document> document(poppler::document::load_from_file(path, secret, secret));
        if (!document) return QUIRE_SPLASH_DAMAGED;
        if (document->is_locked()) return QUIRE_SPLASH_PASSWORD;
        *out = new quire_splash_document{std::move(document)};
        return QUIRE_SPLASH_OK;
    } catch (const std::bad_alloc &) {
        return QUIRE_SPLASH_NO_MEMORY;
    } catch (...) {
        return QUIRE_SPLASH_DAMAGED;
    }
}

extern "C" int quire_splash_page_count(const quire_splash_document *document) {
    try {
        return document->document->pages();
    } catch (...) {
        return 0;
    }
}

extern "C" int quire_splash_page_size(const quire_splash_document *document, int index, double *width, double *height) {
    try {
        std::unique_ptr<poppler::page> page(document->document->create_page(index));
        if (!page || !displayedSize(*page, *width, *height)) return QUIRE_SPLASH_NO_PAGE;
        return QUIRE_SPLASH_OK;
    } catch (...) {
        return QUIRE_SPLASH_NO_PAGE;
    }
}

extern "C" int quire_splash_render(const quire_splash_document *document, int index, int width, int height,
                                   unsigned char *rgba) {
    try {
        if (width < 1 || height < 1) return QUIRE_SPLASH_RENDER_FAILED;
        std::unique_ptr<poppler::page> page(document->document->create_page(index));
        double pageWidth = 0, pageHeight = 0;
        if (!page || !displayedSize(*page, pageWidth, pageHeight)) return QUIRE_SPLASH_NO_PAGE;
        poppler::page_renderer renderer;
        renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
        renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
        renderer.set_paper_color(0xFFFFFFFF);
        renderer.set_image_format(poppler::image::format_argb32);
        // Resolutions that map the page onto exactly width x height pixels.
        double xres = 72.0 * width / pageWidth;
        double yres = 72.0 * height / pageHeight;
        poppler::image image = renderer.render_page(page.get(), xres, yres, 0, 0, width, height);
        if (!image.is_valid() || image.format() != poppler::image::format_argb32) return QUIRE_SPLASH_RENDER_FAILED;
        const int rows = image.height() < height ? image.height() : height;
        const int columns = image.width() < width ? image.width() : width;
        // White where the renderer produced fewer pixels than asked (rounding at the edges).
        std::memset(rgba, 0xFF, size_t(width) * size_t(height) * 4);
        const char *data = image.const_data();
        const int stride = image.bytes_per_row();
        for (int y = 0; y < rows; y++) {
            const uint32_t *source = reinterpret_cast<const uint32_t *>(data + size_t(y) * size_t(stride));
            unsigned char *target = rgba + size_t(y) * size_t(width) * 4;
            for (int x = 0; x < columns; x++) {
                uint32_t pixel = source[x];  // 0xAARRGGBB, premultiplied; the paper is opaque
                uint32_t alpha = pixel >> 24;
                uint32_t red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
                if (alpha != 255) {
                    // Composite over white (the paper), as the cairo path does.
                    red += 255 - alpha;
                    green += 255 - alpha;
                    blue += 255 - alpha;
                    if (red > 255) red = 255;
                    if (green > 255) green = 255;
                    if (blue > 255) blue = 255;
                }
                target[4 * x] = static_cast<unsigned char>(red);
                target[4 * x + 1] = static_cast<unsigned char>(green);
                target[4 * x + 2] = static_cast<unsigned char>(blue);
                target[4 * x + 3] = 255;
            }
        }
        return QUIRE_SPLASH_OK;
    } catch (const std::bad_alloc &) {
        return QUIRE_SPLASH_NO_MEMORY;
    } catch (...) {
        return QUIRE_SPLASH_RENDER_FAILED;
    }
}

extern "C" void quire_splash_close(quire_splash_document *document) { delete document; }
