#ifndef QUIRE_POPPLER_SPLASH_H
#define QUIRE_POPPLER_SPLASH_H
// A C API over libpoppler-cpp's page renderer (poppler's Splash backend), built as its own shared
// object (libQuirePopplerSplash.so) that QuireRender loads with dlopen the first time a raster
// thumbnail of a PDF is drawn, so no quire process maps libpoppler-cpp unless it needs it.
// Every function catches C++ exceptions; none crosses this boundary.

#ifdef __cplusplus
extern "C" {
#endif

typedef struct quire_splash_document quire_splash_document;

enum {
    QUIRE_SPLASH_OK = 0,
    QUIRE_SPLASH_DAMAGED = 1,        // poppler cannot read the document
    QUIRE_SPLASH_PASSWORD = 2,       // encrypted; no password or the wrong one
    QUIRE_SPLASH_NO_PAGE = 3,        // page index out of range or unreadable
    QUIRE_SPLASH_RENDER_FAILED = 4,  // the renderer produced no image
    QUIRE_SPLASH_NO_MEMORY = 5,
};

/// Opens the PDF at `path` (e.g. /proc/self/fd/N for an already opened file); `password` may be NULL.
int quire_splash_open(const char *path, const char *password, quire_splash_document **document);
int quire_splash_page_count(const quire_splash_document *document);
/// The page's crop box in points as displayed (its /Rotate applied).
int quire_splash_page_size(const quire_splash_document *document, int page, double *width, double *height);
/// Draws page `page` (0-based) scaled to exactly `width`×`height` pixels on white paper,
/// anti-aliased, into `rgba` (`width * height * 4` bytes, R G B A, opaque).
int quire_splash_render(const quire_splash_document *document, int page, int width, int height, unsigned char *rgba);
void quire_splash_close(quire_splash_document *document);

#ifdef __cplusplus
}
#endif
#endif
