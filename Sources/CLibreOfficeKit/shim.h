#ifndef CLibreOfficeKit_SHIM_H
#define CLibreOfficeKit_SHIM_H
// LibreOfficeKit: LibreOffice's C API for embedding. Nothing is linked: LibreOfficeKitInit.h
// dlopens libmergedlo.so from the installed office (/usr/lib/libreoffice/program) when the first
// office document is opened, so Quire builds, starts and runs without LibreOffice installed.
// The helpers below call through LibreOfficeKit's function tables (Swift cannot easily), and
// keep the password callback in C.
// The document-level calls (parts, password features) are behind LibreOffice's "unstable" guard.
#define LOK_USE_UNSTABLE_API 1
#include <stdbool.h>
#include <LibreOfficeKit/LibreOfficeKitInit.h>
// LibreOfficeKitEnums.h has C++ in it (static_cast, nullptr): the four values used are copied.
enum {
    QUIRE_LOK_CALLBACK_DOCUMENT_PASSWORD = 20,            /* LOK_CALLBACK_DOCUMENT_PASSWORD */
    QUIRE_LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY = 21,  /* LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY */
    QUIRE_LOK_CALLBACK_JSDIALOG = 46,                     /* LOK_CALLBACK_JSDIALOG */
};
#define QUIRE_LOK_FEATURE_DOCUMENT_PASSWORD (1ULL << 0)
#define QUIRE_LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY (1ULL << 1)
#include <stdlib.h>

/// lok_init_2: loads the office from `install_path` with the user profile at `profile_url`
/// (a file:// URL); NULL on failure. Once per process: an office cannot be initialised twice.
static inline LibreOfficeKit *_Nullable quire_lok_init(const char *_Nonnull install_path,
                                                      const char *_Nonnull profile_url) {
    return lok_init_2(install_path, profile_url);
}

/// What the load's callback knows: the password to give (or NULL), how often LibreOffice asked
/// for it, and how many dialogs LibreOffice opened (with "Batch=true" each is cancelled at once:
/// an import question, such as Calc's Text Import for a file it takes for plain text).
typedef struct {
    LibreOfficeKit *_Nullable kit;
    const char *_Nullable password;
    int asked;
    int dialogs;
} quire_lok_password_state;

static void quire_lok_password_callback(int type, const char *_Nullable payload, void *_Nullable data) {
    quire_lok_password_state *state = (quire_lok_password_state *)data;
    if (!state || !state->kit || !payload) return;
    if (type == QUIRE_LOK_CALLBACK_JSDIALOG) {
        state->dialogs += 1;
    } else if (type == QUIRE_LOK_CALLBACK_DOCUMENT_PASSWORD) {
        state->asked += 1;
        // The password once; asked again means it was wrong: give none, and the load fails.
        const char *password = state->asked == 1 ? state->password : NULL;
        state->kit->pClass->setDocumentPassword(state->kit, payload, password);
    } else if (type == QUIRE_LOK_CALLBACK_DOCUMENT_PASSWORD_TO_MODIFY) {
        // No password to modify: the document opens read-only, which is all Quire needs.
        state->kit->pClass->setDocumentPassword(state->kit, payload, NULL);
    }
}

/// Asks LibreOffice to report password prompts to `state` (instead of failing silently).
static inline void quire_lok_watch_passwords(LibreOfficeKit *_Nonnull kit, quire_lok_password_state *_Nonnull state) {
    state->kit = kit;
    kit->pClass->setOptionalFeatures(kit, QUIRE_LOK_FEATURE_DOCUMENT_PASSWORD | QUIRE_LOK_FEATURE_DOCUMENT_PASSWORD_TO_MODIFY);
    kit->pClass->registerCallback(kit, quire_lok_password_callback, state);
}

static inline LibreOfficeKitDocument *_Nullable quire_lok_load(LibreOfficeKit *_Nonnull kit, const char *_Nonnull url,
                                                              const char *_Nonnull options) {
    return kit->pClass->documentLoadWithOptions(kit, url, options);
}

/// The last error (caller frees with quire_lok_free_error), or NULL.
static inline char *_Nullable quire_lok_error(LibreOfficeKit *_Nonnull kit) {
    return kit->pClass->getError(kit);
}

static inline void quire_lok_free_error(LibreOfficeKit *_Nonnull kit, char *_Nullable error) {
    if (!error) return;
    if (LIBREOFFICEKIT_HAS(kit, freeError)) kit->pClass->freeError(error);
    else free(error);
}

static inline char *_Nullable quire_lok_version(LibreOfficeKit *_Nonnull kit) {
    return kit->pClass->getVersionInfo(kit);
}

static inline int quire_lok_save_as(LibreOfficeKitDocument *_Nonnull document, const char *_Nonnull url,
                                    const char *_Nonnull format, const char *_Nullable filter_options) {
    return document->pClass->saveAs(document, url, format, filter_options);
}

static inline int quire_lok_document_type(LibreOfficeKitDocument *_Nonnull document) {
    return document->pClass->getDocumentType(document);
}

static inline int quire_lok_parts(LibreOfficeKitDocument *_Nonnull document) {
    return document->pClass->getParts(document);
}

/// Stops reporting to the password callback (its state lives only while a document loads).
static inline void quire_lok_unwatch_passwords(LibreOfficeKit *_Nonnull kit) {
    kit->pClass->registerCallback(kit, NULL, NULL);
}

/// The document's view LibreOffice calls current (each loaded document has its own).
static inline int quire_lok_get_view(LibreOfficeKitDocument *_Nonnull document) {
    return document->pClass->getView(document);
}

/// Makes the document's view `view` current (another document loaded since may have taken it).
static inline void quire_lok_set_view(LibreOfficeKitDocument *_Nonnull document, int view) {
    document->pClass->setView(document, view);
}

/// Prepares the document's view for painting tiles (once, before the first paint).
static inline void quire_lok_initialize_for_rendering(LibreOfficeKitDocument *_Nonnull document) {
    document->pClass->initializeForRendering(document, "{}");
}

/// A text document's page rectangles in twips, "x, y, w, h; x, y, w, h; …" (caller frees
/// with free()), or NULL.
static inline char *_Nullable quire_lok_page_rectangles(LibreOfficeKitDocument *_Nonnull document) {
    if (!LIBREOFFICEKIT_DOCUMENT_HAS(document, getPartPageRectangles)) return NULL;
    return document->pClass->getPartPageRectangles(document);
}

/// The current part's size in twips (a slide, a drawing's page; a text document: all pages).
static inline void quire_lok_document_size(LibreOfficeKitDocument *_Nonnull document, long *_Nonnull width, long *_Nonnull height) {
    document->pClass->getDocumentSize(document, width, height);
}

static inline void quire_lok_set_part(LibreOfficeKitDocument *_Nonnull document, int part) {
    document->pClass->setPart(document, part);
}

/// Whether tiles come as BGRA (cairo's ARGB32 on little-endian machines): LOK_TILEMODE_BGRA.
static inline bool quire_lok_tiles_are_bgra(LibreOfficeKitDocument *_Nonnull document) {
    return LIBREOFFICEKIT_DOCUMENT_HAS(document, getTileMode) && document->pClass->getTileMode(document) == 1;
}

/// Paints the document area (x, y, width, height in twips) into `buffer`, canvas_width ×
/// canvas_height pixels of 4 bytes each, rows packed (stride = 4 × canvas_width), premultiplied.
static inline void quire_lok_paint_tile(LibreOfficeKitDocument *_Nonnull document, unsigned char *_Nonnull buffer,
                                        int canvas_width, int canvas_height, int x, int y, int width, int height) {
    document->pClass->paintTile(document, buffer, canvas_width, canvas_height, x, y, width, height);
}

static inline void quire_lok_document_destroy(LibreOfficeKitDocument *_Nonnull document) {
    document->pClass->destroy(document);
}
#endif
