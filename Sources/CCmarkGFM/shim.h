#ifndef CCmarkGFM_SHIM_H
#define CCmarkGFM_SHIM_H
// cmark-gfm (GitHub's CommonMark with its tables, task lists, strikethrough, autolinks and
// footnotes), loaded lazily as libarchive is: the module map links nothing; the entry points
// are resolved with dlopen/dlsym the first time a Markdown file is read.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

/// Entry points of libcmark-gfm and libcmark-gfm-extensions.
typedef struct {
    __typeof__(&cmark_parser_new) _Nonnull cmark_parser_new;
    __typeof__(&cmark_parser_attach_syntax_extension) _Nonnull cmark_parser_attach_syntax_extension;
    __typeof__(&cmark_find_syntax_extension) _Nonnull cmark_find_syntax_extension;
    __typeof__(&cmark_parser_feed) _Nonnull cmark_parser_feed;
    __typeof__(&cmark_parser_finish) _Nonnull cmark_parser_finish;
    __typeof__(&cmark_parser_free) _Nonnull cmark_parser_free;
    __typeof__(&cmark_node_free) _Nonnull cmark_node_free;
    __typeof__(&cmark_node_first_child) _Nonnull cmark_node_first_child;
    __typeof__(&cmark_node_next) _Nonnull cmark_node_next;
    __typeof__(&cmark_node_get_type) _Nonnull cmark_node_get_type;
    __typeof__(&cmark_node_get_type_string) _Nonnull cmark_node_get_type_string;
    __typeof__(&cmark_node_get_literal) _Nonnull cmark_node_get_literal;
    __typeof__(&cmark_node_get_heading_level) _Nonnull cmark_node_get_heading_level;
    __typeof__(&cmark_node_get_list_type) _Nonnull cmark_node_get_list_type;
    __typeof__(&cmark_node_get_list_start) _Nonnull cmark_node_get_list_start;
    __typeof__(&cmark_node_get_url) _Nonnull cmark_node_get_url;
    __typeof__(&cmark_node_get_fence_info) _Nonnull cmark_node_get_fence_info;
    __typeof__(&cmark_node_get_title) _Nonnull cmark_node_get_title;
    __typeof__(&cmark_gfm_core_extensions_ensure_registered) _Nonnull cmark_gfm_core_extensions_ensure_registered;
    __typeof__(&cmark_gfm_extensions_get_table_row_is_header) _Nonnull cmark_gfm_extensions_get_table_row_is_header;
    __typeof__(&cmark_gfm_extensions_get_table_columns) _Nonnull cmark_gfm_extensions_get_table_columns;
    __typeof__(&cmark_gfm_extensions_get_table_alignments) _Nonnull cmark_gfm_extensions_get_table_alignments;
    __typeof__(&cmark_gfm_extensions_get_tasklist_item_checked) _Nonnull cmark_gfm_extensions_get_tasklist_item_checked;
} quire_cmark_api;

/// Loads both libraries (RTLD_LOCAL) and resolves every entry point once; NULL when a library or
/// a symbol is missing. The result lives for the life of the process.
static inline const quire_cmark_api *_Nullable quire_cmark_api_load(void) {
    static quire_cmark_api api;
    void *core = quire_library_open("libcmark-gfm.so.0.29.0.gfm.6");
    void *extensions = quire_library_open("libcmark-gfm-extensions.so.0.29.0.gfm.6");
    if (!core || !extensions) return NULL;
    void *symbol;
    if (!(symbol = dlsym(core, "cmark_parser_new"))) return NULL;
    *(void **)&api.cmark_parser_new = symbol;
    if (!(symbol = dlsym(core, "cmark_parser_attach_syntax_extension"))) return NULL;
    *(void **)&api.cmark_parser_attach_syntax_extension = symbol;
    if (!(symbol = dlsym(core, "cmark_find_syntax_extension"))) return NULL;
    *(void **)&api.cmark_find_syntax_extension = symbol;
    if (!(symbol = dlsym(core, "cmark_parser_feed"))) return NULL;
    *(void **)&api.cmark_parser_feed = symbol;
    if (!(symbol = dlsym(core, "cmark_parser_finish"))) return NULL;
    *(void **)&api.cmark_parser_finish = symbol;
    if (!(symbol = dlsym(core, "cmark_parser_free"))) return NULL;
    *(void **)&api.cmark_parser_free = symbol;
    if (!(symbol = dlsym(core, "cmark_node_free"))) return NULL;
    *(void **)&api.cmark_node_free = symbol;
    if (!(symbol = dlsym(core, "cmark_node_first_child"))) return NULL;
    *(void **)&api.cmark_node_first_child = symbol;
    if (!(symbol = dlsym(core, "cmark_node_next"))) return NULL;
    *(void **)&api.cmark_node_next = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_type"))) return NULL;
    *(void **)&api.cmark_node_get_type = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_type_string"))) return NULL;
    *(void **)&api.cmark_node_get_type_string = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_literal"))) return NULL;
    *(void **)&api.cmark_node_get_literal = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_heading_level"))) return NULL;
    *(void **)&api.cmark_node_get_heading_level = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_list_type"))) return NULL;
    *(void **)&api.cmark_node_get_list_type = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_list_start"))) return NULL;
    *(void **)&api.cmark_node_get_list_start = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_url"))) return NULL;
    *(void **)&api.cmark_node_get_url = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_fence_info"))) return NULL;
    *(void **)&api.cmark_node_get_fence_info = symbol;
    if (!(symbol = dlsym(core, "cmark_node_get_title"))) return NULL;
    *(void **)&api.cmark_node_get_title = symbol;
    if (!(symbol = dlsym(extensions, "cmark_gfm_core_extensions_ensure_registered"))) return NULL;
    *(void **)&api.cmark_gfm_core_extensions_ensure_registered = symbol;
    if (!(symbol = dlsym(extensions, "cmark_gfm_extensions_get_table_row_is_header"))) return NULL;
    *(void **)&api.cmark_gfm_extensions_get_table_row_is_header = symbol;
    if (!(symbol = dlsym(extensions, "cmark_gfm_extensions_get_table_columns"))) return NULL;
    *(void **)&api.cmark_gfm_extensions_get_table_columns = symbol;
    if (!(symbol = dlsym(extensions, "cmark_gfm_extensions_get_table_alignments"))) return NULL;
    *(void **)&api.cmark_gfm_extensions_get_table_alignments = symbol;
    if (!(symbol = dlsym(extensions, "cmark_gfm_extensions_get_tasklist_item_checked"))) return NULL;
    *(void **)&api.cmark_gfm_extensions_get_tasklist_item_checked = symbol;
    return &api;
}
#endif
