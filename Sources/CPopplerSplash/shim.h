#ifndef CPOPPLERSPLASH_SHIM_H
#define CPOPPLERSPLASH_SHIM_H
// poppler's Splash backend, reached through Quire's own small C++ library
// (Sources/QuirePopplerSplash → libQuirePopplerSplash.so, which links libpoppler-cpp). It is
// loaded with dlopen the first time a raster thumbnail needs it: quire itself links neither the
// shim nor libpoppler-cpp, so start-up pays nothing for them. The module map links only libdl.
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include "../QuirePopplerSplash/include/quire_poppler_splash.h"

/// Entry points, resolved with dlsym on first use.
typedef struct {
    __typeof__(quire_splash_open) *_Nonnull open;
    __typeof__(quire_splash_page_count) *_Nonnull page_count;
    __typeof__(quire_splash_page_size) *_Nonnull page_size;
    __typeof__(quire_splash_render) *_Nonnull render;
    __typeof__(quire_splash_close) *_Nonnull close;
    __typeof__(quire_splash_info) *_Nonnull info;
    __typeof__(quire_splash_info_text) *_Nonnull info_text;
    __typeof__(quire_splash_free) *_Nonnull free_text;
    __typeof__(quire_splash_params_held) *_Nonnull params_held;
    __typeof__(quire_splash_hold_params) *_Nonnull hold_params;
} quire_splash_api;

/// Loads the shim at `path` (RTLD_LOCAL) and resolves every entry point; NULL when the file
/// or a symbol is missing (`error` then says why, from dlerror).
static inline int quire_splash_api_load(const char *_Nonnull path, quire_splash_api *_Nonnull api,
                                        const char *_Nullable *_Nullable error) {
    void *library = dlopen(path, quire_library_open_flags());
    if (!library) {
        if (error) *error = dlerror();
        return 0;
    }
    void *symbol;
#define QUIRE_SPLASH_RESOLVE(field, name) \
    if (!(symbol = dlsym(library, name))) { if (error) *error = dlerror(); return 0; } \
    *(void **)&api->field = symbol;
    QUIRE_SPLASH_RESOLVE(open, "quire_splash_open")
    QUIRE_SPLASH_RESOLVE(page_count, "quire_splash_page_count")
    QUIRE_SPLASH_RESOLVE(page_size, "quire_splash_page_size")
    QUIRE_SPLASH_RESOLVE(render, "quire_splash_render")
    QUIRE_SPLASH_RESOLVE(close, "quire_splash_close")
    QUIRE_SPLASH_RESOLVE(info, "quire_splash_info")
    QUIRE_SPLASH_RESOLVE(info_text, "quire_splash_info_text")
    QUIRE_SPLASH_RESOLVE(free_text, "quire_splash_free")
    QUIRE_SPLASH_RESOLVE(params_held, "quire_splash_params_held")
    QUIRE_SPLASH_RESOLVE(hold_params, "quire_splash_hold_params")
#undef QUIRE_SPLASH_RESOLVE
    return 1;
}
#endif
