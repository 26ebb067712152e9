#ifndef CFontconfig_SHIM_H
#define CFontconfig_SHIM_H
// fontconfig, loaded on first use (as cairo and Pango are: see CCairo's shim): only the font
// engine asks it anything directly — to read a font file's faces into a private configuration
// that holds that file alone, so a specimen is drawn in the font itself and never in a fallback.
// The header by its absolute path: pkg-config would link the library.
#include "/usr/include/fontconfig/fontconfig.h"
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

#define QUIRE_FONTCONFIG_FUNCTIONS(X) \
    X(FcConfigCreate) \
    X(FcConfigDestroy) \
    X(FcConfigAppFontAddFile) \
    X(FcConfigGetFonts) \
    X(FcPatternGetString) \
    X(FcPatternGetInteger) \
    X(FcPatternGetBool) \
    X(FcPatternGetCharSet) \
    X(FcCharSetHasChar) \
    X(FcCharSetCount) \

typedef struct {
#define QUIRE_FONTCONFIG_FIELD(name) __typeof__(name) *_Nonnull name;
    QUIRE_FONTCONFIG_FUNCTIONS(QUIRE_FONTCONFIG_FIELD)
#undef QUIRE_FONTCONFIG_FIELD
} quire_fontconfig_api;

/// Loads libfontconfig.so.1 (the copy cairo and Pango use when they are loaded) and resolves
/// every entry point once; NULL when the library or a symbol is missing.
static inline const quire_fontconfig_api *_Nullable quire_fontconfig_api_load(void) {
    static quire_fontconfig_api api;
    void *library = quire_library_open("libfontconfig.so.1");
    if (!library) return NULL;
    void *symbol;
#define QUIRE_FONTCONFIG_RESOLVE(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;
    QUIRE_FONTCONFIG_FUNCTIONS(QUIRE_FONTCONFIG_RESOLVE)
#undef QUIRE_FONTCONFIG_RESOLVE
    return &api;
}

/// The fontconfig set that holds fonts added by the application (FcSetApplication).
static const int quire_fc_set_application = FcSetApplication;
/// FcResultMatch.
static const int quire_fc_result_match = FcResultMatch;
#endif
