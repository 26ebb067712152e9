// libpoppler-cpp's page_renderer (Splash) behind the C API in quire_poppler_splash.h.
#include "quire_poppler_splash.h"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-image.h>
#include <poppler/cpp/poppler-page.h>
#include <poppler/cpp/poppler-page-renderer.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

// poppler's process-wide GlobalParams (font and encoding tables; building them parses the
// glyph-name and Unicode tables: thousands of allocations and string compares) belong to a
// reference count, GlobalParamsIniter, that every document holds (libpoppler-cpp's and, in the
// poppler here, 22.12, poppler-glib's too): the first document creates them and, when the last one closes,
// they are destroyed and the global pointer reset to null. So a process that opens one PDF after
// another rebuilt them for every document (profiled: most of poppler's time in fuzz-open, whose
// documents never overlap). One document held for the life of the process keeps the count above
// zero: the parameters are built once, when the shim is loaded, and shared by every later
// document of either library. (Older poppler-glib created them only when the pointer was null,
// outside the count, so libpoppler-cpp could replace them under an open poppler-glib
// document: Quire loads the shim before its poppler-glib documents where a process uses both,
// see SplashPDFDocument.prepare().)
class ProcessParams {
public:
    ProcessParams() {
        try {
            silenceOnce();
            pdf = minimalPDF();
            keeper = poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size()));
        } catch (...) {
            keeper = nullptr;
        }
    }
private:
    // One empty page with a correct cross-reference table (poppler reads it without repairs).
    static std::string minimalPDF() {
        const char *objects[3] = {"<</Type/Catalog/Pages 2 0 R>>", "<</Type/Pages/Kids[3 0 R]/Count 1>>",
                                  "<</Type/Page/Parent 2 0 R/MediaBox[0 0 1 1]>>"};
        std::string out = "%PDF-1.4\n";
        size_t offsets[3];
        for (int i = 0; i < 3; i++) {
            offsets[i] = out.size();
            out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
        }
        size_t xref = out.size();
        out += "xref\n0 4\n0000000000 65535 f \n";
        for (size_t offset : offsets) {
            char line[21];
            std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
            out += line;
        }
        out += "trailer\n<</Size 4/Root 1 0 R>>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
        return out;
    }
public:
    bool holds() const { return keeper != nullptr; }
private:
    std::string pdf;  // load_from_raw_data does not copy the bytes
    // Never closed: closing it would reset the parameters under any document still open (the
    // pointer stays reachable, so LeakSanitizer does not report it).
    poppler::document *keeper = nullptr;
};

// Built by the first document opened through the shim, or by quire_splash_hold_params (which
// SplashPDFDocument.prepare() calls before a process's first poppler-glib document). Not in a
// static initializer: those run inside dlopen, under the dynamic loader's lock, and the 4 M
// instructions of tables held back every other thread's dlopen for as long (`quire print` loads
// libcups on its printer thread while poppler reads the document on another).
ProcessParams &processParams() {
    static ProcessParams *const params = new ProcessParams();
    return *params;
}

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

// PDFDocEncoding where it differs from Latin-1 (PDF 32000-1:2008, Annex D.2): 0x18-0x1F and
// 0x80-0xA0. poppler-cpp hands a text string without byte-order mark over byte for byte, as
// Latin-1; poppler-glib (and the PDF reader the user expects) maps these.
char32_t pdfDocEncoding(char32_t unit) {
    static const char16_t low[8] = {0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC};
    static const char16_t high[33] = {
        0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044, 0x2039, 0x203A, 0x2212,
        0x2030, 0x201E, 0x201C, 0x201D, 0x2018, 0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141,
        0x0152, 0x0160, 0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0xFFFD, 0x20AC};
    if (unit >= 0x18 && unit <= 0x1F) return low[unit - 0x18];
    if (unit >= 0x80 && unit <= 0xA0) return high[unit - 0x80];
    return unit;
}

void appendUTF8(std::string &out, char32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

} // namespace

extern "C" int quire_splash_open(const char *path, const char *password, quire_splash_document **out) {
    *out = nullptr;
    try {
        processParams();
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

extern "C" int quire_splash_info(const quire_splash_document *document, quire_splash_facts *facts) {
    try {
        const poppler::document &doc = *document->document;
        facts->page_count = doc.pages();
        doc.get_pdf_version(&facts->version_major, &facts->version_minor);
        const poppler::permission_enum order[8] = {
            poppler::perm_print, poppler::perm_change, poppler::perm_copy, poppler::perm_add_notes,
            poppler::perm_fill_forms, poppler::perm_accessibility, poppler::perm_assemble,
            poppler::perm_print_high_resolution};
        facts->permissions = 0;
        for (unsigned bit = 0; bit < 8; bit++) {
            if (doc.has_permission(order[bit])) facts->permissions |= 1u << bit;
        }
        facts->creation_date = static_cast<long long>(doc.info_date_t("CreationDate"));
        facts->modification_date = static_cast<long long>(doc.info_date_t("ModDate"));
        return QUIRE_SPLASH_OK;
    } catch (const std::bad_alloc &) {
        return QUIRE_SPLASH_NO_MEMORY;
    } catch (...) {
        return QUIRE_SPLASH_DAMAGED;
    }
}

extern "C" char *quire_splash_info_text(const quire_splash_document *document, const char *key) {
    try {
        poppler::ustring text = document->document->info_key(key);
        if (text.empty()) return nullptr;
        std::string utf8;
        for (size_t i = 0; i < text.size(); i++) {
            char32_t unit = text[i];
            if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
                appendUTF8(utf8, 0x10000 + ((unit - 0xD800) << 10) + (char32_t(text[i + 1]) - 0xDC00));
                i++;
            } else if (unit >= 0xD800 && unit <= 0xDFFF) {
                appendUTF8(utf8, 0xFFFD);
            } else {
                appendUTF8(utf8, pdfDocEncoding(unit));
            }
        }
        char *copy = static_cast<char *>(std::malloc(utf8.size() + 1));
        if (copy) std::memcpy(copy, utf8.c_str(), utf8.size() + 1);
        return copy;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void quire_splash_free(char *text) { std::free(text); }

extern "C" int quire_splash_hold_params(void) {
    try {
        return processParams().holds() ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int quire_splash_params_held(void) {
    try {
        return poppler::set_data_dir(std::string()) ? 0 : 1;
    } catch (...) {
        return 0;
    }
}
