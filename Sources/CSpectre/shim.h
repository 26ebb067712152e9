#ifndef CSpectre_SHIM_H
#define CSpectre_SHIM_H
// Loaded lazily: linking this library would cost every quire process (a thumbnail of a PDF
// included) its start-up time and memory, so the module map links nothing and the entry points
// are resolved with dlopen/dlsym the first time the family is rendered.
#include <libspectre/spectre.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

/// Entry points, resolved with dlsym when the family is first rendered.
typedef struct {
    __typeof__(&spectre_document_new) _Nonnull spectre_document_new;
    __typeof__(&spectre_document_load) _Nonnull spectre_document_load;
    __typeof__(&spectre_document_status) _Nonnull spectre_document_status;
    __typeof__(&spectre_document_free) _Nonnull spectre_document_free;
    __typeof__(&spectre_document_get_n_pages) _Nonnull spectre_document_get_n_pages;
    __typeof__(&spectre_document_get_page) _Nonnull spectre_document_get_page;
    __typeof__(&spectre_page_free) _Nonnull spectre_page_free;
    __typeof__(&spectre_page_get_size) _Nonnull spectre_page_get_size;
    __typeof__(&spectre_page_render) _Nonnull spectre_page_render;
    __typeof__(&spectre_page_status) _Nonnull spectre_page_status;
    __typeof__(&spectre_render_context_new) _Nonnull spectre_render_context_new;
    __typeof__(&spectre_render_context_free) _Nonnull spectre_render_context_free;
    __typeof__(&spectre_render_context_set_scale) _Nonnull spectre_render_context_set_scale;
    __typeof__(&spectre_render_context_set_antialias_bits) _Nonnull spectre_render_context_set_antialias_bits;
    __typeof__(&spectre_status_to_string) _Nonnull spectre_status_to_string;
} quire_spectre_api;

/// Loads libspectre.so.1 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process.
static inline const quire_spectre_api *_Nullable quire_spectre_api_load(void) {
    static quire_spectre_api api;
    void *library = quire_library_open("libspectre.so.1");
    if (!library) return NULL;
    void *symbol;
    if (!(symbol = dlsym(library, "spectre_document_new"))) return NULL;
    *(void **)&api.spectre_document_new = symbol;
    if (!(symbol = dlsym(library, "spectre_document_load"))) return NULL;
    *(void **)&api.spectre_document_load = symbol;
    if (!(symbol = dlsym(library, "spectre_document_status"))) return NULL;
    *(void **)&api.spectre_document_status = symbol;
    if (!(symbol = dlsym(library, "spectre_document_free"))) return NULL;
    *(void **)&api.spectre_document_free = symbol;
    if (!(symbol = dlsym(library, "spectre_document_get_n_pages"))) return NULL;
    *(void **)&api.spectre_document_get_n_pages = symbol;
    if (!(symbol = dlsym(library, "spectre_document_get_page"))) return NULL;
    *(void **)&api.spectre_document_get_page = symbol;
    if (!(symbol = dlsym(library, "spectre_page_free"))) return NULL;
    *(void **)&api.spectre_page_free = symbol;
    if (!(symbol = dlsym(library, "spectre_page_get_size"))) return NULL;
    *(void **)&api.spectre_page_get_size = symbol;
    if (!(symbol = dlsym(library, "spectre_page_render"))) return NULL;
    *(void **)&api.spectre_page_render = symbol;
    if (!(symbol = dlsym(library, "spectre_page_status"))) return NULL;
    *(void **)&api.spectre_page_status = symbol;
    if (!(symbol = dlsym(library, "spectre_render_context_new"))) return NULL;
    *(void **)&api.spectre_render_context_new = symbol;
    if (!(symbol = dlsym(library, "spectre_render_context_free"))) return NULL;
    *(void **)&api.spectre_render_context_free = symbol;
    if (!(symbol = dlsym(library, "spectre_render_context_set_scale"))) return NULL;
    *(void **)&api.spectre_render_context_set_scale = symbol;
    if (!(symbol = dlsym(library, "spectre_render_context_set_antialias_bits"))) return NULL;
    *(void **)&api.spectre_render_context_set_antialias_bits = symbol;
    if (!(symbol = dlsym(library, "spectre_status_to_string"))) return NULL;
    *(void **)&api.spectre_status_to_string = symbol;
    return &api;
}
#endif
