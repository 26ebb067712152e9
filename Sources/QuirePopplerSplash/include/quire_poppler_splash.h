#ifndef QUIRE_POPPLER_SPLASH_H
#define QUIRE_POPPLER_SPLASH_H
// A C API over libpoppler-cpp's page renderer (poppler's Splash backend), built as its own shared
// object (libQuirePopplerSplash.so) that QuireRender loads with dlopen the first time a raster
// thumbnail of a PDF is drawn (or `quire info` describes one: it is poppler without GLib, GObject
// and cairo), so no quire process maps libpoppler-cpp unless it needs it.
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

/// Document facts for an info card, as poppler-glib reports them (see quire_splash_info).
typedef struct {
    int page_count;
    int version_major, version_minor;
    /// POPPLER_PERMISSIONS_* bits of poppler-glib: print 1, modify 2, copy 4, add notes 8,
    /// fill forms 16, extract contents 32, assemble 64, print high resolution 128.
    unsigned permissions;
    long long creation_date, modification_date;  // seconds since 1970, or -1
} quire_splash_facts;

/// Page count, PDF version, permissions and dates.
int quire_splash_info(const quire_splash_document *document, quire_splash_facts *facts);
/// The Info dictionary's text entry `key` ("Title", "Author", …) as UTF-8, decoded as
/// poppler-glib decodes it (UTF-16 with a byte-order mark, else PDFDocEncoding); NULL when absent.
/// Free with quire_splash_free.
char *quire_splash_info_text(const quire_splash_document *document, const char *key);
void quire_splash_free(char *text);

/// Builds poppler's process-wide parameters (font and encoding tables) now, if no document has
/// yet, and holds them for the life of the process (the shim keeps one small document open).
/// The first quire_splash_open does the same. 1 when they are held.
int quire_splash_hold_params(void);

/// 1 when poppler's process-wide parameters (font and encoding tables) are held for the life of
/// the process (the shim keeps one document open from quire_splash_hold_params or its first
/// quire_splash_open on), 0 when they
/// would be rebuilt by the next document. Asks poppler itself: its data directory can be changed
/// only while no document holds the parameters (the one it tries to set is the default, "").
int quire_splash_params_held(void);

#ifdef __cplusplus
}
#endif
#endif
