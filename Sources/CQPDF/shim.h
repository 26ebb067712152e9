#ifndef CQPDF_SHIM_H
#define CQPDF_SHIM_H
// libqpdf is loaded lazily, like QuireRender's optional libraries: it is C++ and pulls in
// libstdc++ and GnuTLS, which every quire process would otherwise map and relocate at start-up.
// The thumbnail fast paths (scanned pages, the backend probe) use it. The header gives the types and the
// prototypes; the module map links nothing but libdl.
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <qpdf/qpdf-c.h>

/// Entry points, resolved with dlsym on first use.
typedef struct {
    __typeof__(qpdf_init) *_Nonnull qpdf_init;
    __typeof__(qpdf_cleanup) *_Nonnull qpdf_cleanup;
    __typeof__(qpdf_silence_errors) *_Nonnull qpdf_silence_errors;
    __typeof__(qpdf_set_suppress_warnings) *_Nonnull qpdf_set_suppress_warnings;
    __typeof__(qpdf_read) *_Nonnull qpdf_read;
    __typeof__(qpdf_has_error) *_Nonnull qpdf_has_error;
    __typeof__(qpdf_get_error) *_Nonnull qpdf_get_error;
    __typeof__(qpdf_get_num_pages) *_Nonnull qpdf_get_num_pages;
    __typeof__(qpdf_get_root) *_Nonnull qpdf_get_root;
    __typeof__(qpdf_oh_is_integer) *_Nonnull qpdf_oh_is_integer;
    __typeof__(qpdf_oh_get_int_value_as_int) *_Nonnull qpdf_oh_get_int_value_as_int;
    __typeof__(qpdf_oh_has_key) *_Nonnull qpdf_oh_has_key;
    __typeof__(qpdf_oh_get_key) *_Nonnull qpdf_oh_get_key;
    __typeof__(qpdf_oh_is_dictionary) *_Nonnull qpdf_oh_is_dictionary;
    __typeof__(qpdf_oh_is_stream) *_Nonnull qpdf_oh_is_stream;
    __typeof__(qpdf_oh_get_dict) *_Nonnull qpdf_oh_get_dict;
    __typeof__(qpdf_oh_is_name_and_equals) *_Nonnull qpdf_oh_is_name_and_equals;
    __typeof__(qpdf_oh_get_bool_value) *_Nonnull qpdf_oh_get_bool_value;
    __typeof__(qpdf_oh_is_name) *_Nonnull qpdf_oh_is_name;
    __typeof__(qpdf_oh_is_array) *_Nonnull qpdf_oh_is_array;
    __typeof__(qpdf_oh_get_array_n_items) *_Nonnull qpdf_oh_get_array_n_items;
    __typeof__(qpdf_oh_get_array_item) *_Nonnull qpdf_oh_get_array_item;
    __typeof__(qpdf_oh_get_page_content_data) *_Nonnull qpdf_oh_get_page_content_data;
    __typeof__(qpdf_oh_get_stream_data) *_Nonnull qpdf_oh_get_stream_data;
    __typeof__(qpdf_oh_is_number) *_Nonnull qpdf_oh_is_number;
    __typeof__(qpdf_oh_get_numeric_value) *_Nonnull qpdf_oh_get_numeric_value;
    __typeof__(qpdf_oh_get_name) *_Nonnull qpdf_oh_get_name;
    __typeof__(qpdf_oh_begin_dict_key_iter) *_Nonnull qpdf_oh_begin_dict_key_iter;
    __typeof__(qpdf_oh_dict_more_keys) *_Nonnull qpdf_oh_dict_more_keys;
    __typeof__(qpdf_oh_dict_next_key) *_Nonnull qpdf_oh_dict_next_key;
    __typeof__(qpdf_oh_is_null) *_Nonnull qpdf_oh_is_null;
    __typeof__(qpdf_more_warnings) *_Nonnull qpdf_more_warnings;
    __typeof__(qpdf_read_memory) *_Nonnull qpdf_read_memory;
    __typeof__(qpdf_get_trailer) *_Nonnull qpdf_get_trailer;
    __typeof__(qpdf_get_page_n) *_Nonnull qpdf_get_page_n;
    __typeof__(qpdf_oh_replace_key) *_Nonnull qpdf_oh_replace_key;
    __typeof__(qpdf_oh_new_integer) *_Nonnull qpdf_oh_new_integer;
    __typeof__(qpdf_oh_unparse) *_Nonnull qpdf_oh_unparse;
    __typeof__(qpdf_oh_unparse_resolved) *_Nonnull qpdf_oh_unparse_resolved;
    __typeof__(qpdf_oh_get_object_id) *_Nonnull qpdf_oh_get_object_id;
    __typeof__(qpdf_oh_get_generation) *_Nonnull qpdf_oh_get_generation;
    __typeof__(qpdf_oh_get_utf8_value) *_Nonnull qpdf_oh_get_utf8_value;
    __typeof__(qpdf_oh_parse) *_Nonnull qpdf_oh_parse;
    __typeof__(qpdf_oh_remove_key) *_Nonnull qpdf_oh_remove_key;
} quire_qpdf_api;

/// Loads libqpdf (RTLD_LOCAL) and resolves every entry point once; NULL when the library or a
/// symbol is missing (the fast path is then simply not taken).
static inline const quire_qpdf_api *_Nullable quire_qpdf_api_load(void) {
    static quire_qpdf_api api;
    void *library = quire_library_open("libqpdf.so.29");
    if (!library) library = quire_library_open("libqpdf.so");
    if (!library) return NULL;
    void *symbol;
    if (!(symbol = dlsym(library, "qpdf_init"))) return NULL;
    *(void **)&api.qpdf_init = symbol;
    if (!(symbol = dlsym(library, "qpdf_cleanup"))) return NULL;
    *(void **)&api.qpdf_cleanup = symbol;
    if (!(symbol = dlsym(library, "qpdf_silence_errors"))) return NULL;
    *(void **)&api.qpdf_silence_errors = symbol;
    if (!(symbol = dlsym(library, "qpdf_set_suppress_warnings"))) return NULL;
    *(void **)&api.qpdf_set_suppress_warnings = symbol;
    if (!(symbol = dlsym(library, "qpdf_read"))) return NULL;
    *(void **)&api.qpdf_read = symbol;
    if (!(symbol = dlsym(library, "qpdf_has_error"))) return NULL;
    *(void **)&api.qpdf_has_error = symbol;
    if (!(symbol = dlsym(library, "qpdf_get_error"))) return NULL;
    *(void **)&api.qpdf_get_error = symbol;
    if (!(symbol = dlsym(library, "qpdf_get_num_pages"))) return NULL;
    *(void **)&api.qpdf_get_num_pages = symbol;
    if (!(symbol = dlsym(library, "qpdf_get_root"))) return NULL;
    *(void **)&api.qpdf_get_root = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_integer"))) return NULL;
    *(void **)&api.qpdf_oh_is_integer = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_int_value_as_int"))) return NULL;
    *(void **)&api.qpdf_oh_get_int_value_as_int = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_has_key"))) return NULL;
    *(void **)&api.qpdf_oh_has_key = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_key"))) return NULL;
    *(void **)&api.qpdf_oh_get_key = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_dictionary"))) return NULL;
    *(void **)&api.qpdf_oh_is_dictionary = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_stream"))) return NULL;
    *(void **)&api.qpdf_oh_is_stream = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_dict"))) return NULL;
    *(void **)&api.qpdf_oh_get_dict = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_name_and_equals"))) return NULL;
    *(void **)&api.qpdf_oh_is_name_and_equals = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_bool_value"))) return NULL;
    *(void **)&api.qpdf_oh_get_bool_value = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_name"))) return NULL;
    *(void **)&api.qpdf_oh_is_name = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_array"))) return NULL;
    *(void **)&api.qpdf_oh_is_array = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_array_n_items"))) return NULL;
    *(void **)&api.qpdf_oh_get_array_n_items = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_array_item"))) return NULL;
    *(void **)&api.qpdf_oh_get_array_item = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_page_content_data"))) return NULL;
    *(void **)&api.qpdf_oh_get_page_content_data = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_stream_data"))) return NULL;
    *(void **)&api.qpdf_oh_get_stream_data = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_number"))) return NULL;
    *(void **)&api.qpdf_oh_is_number = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_numeric_value"))) return NULL;
    *(void **)&api.qpdf_oh_get_numeric_value = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_name"))) return NULL;
    *(void **)&api.qpdf_oh_get_name = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_begin_dict_key_iter"))) return NULL;
    *(void **)&api.qpdf_oh_begin_dict_key_iter = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_dict_more_keys"))) return NULL;
    *(void **)&api.qpdf_oh_dict_more_keys = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_dict_next_key"))) return NULL;
    *(void **)&api.qpdf_oh_dict_next_key = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_is_null"))) return NULL;
    *(void **)&api.qpdf_oh_is_null = symbol;
    if (!(symbol = dlsym(library, "qpdf_more_warnings"))) return NULL;
    *(void **)&api.qpdf_more_warnings = symbol;
    if (!(symbol = dlsym(library, "qpdf_read_memory"))) return NULL;
    *(void **)&api.qpdf_read_memory = symbol;
    if (!(symbol = dlsym(library, "qpdf_get_trailer"))) return NULL;
    *(void **)&api.qpdf_get_trailer = symbol;
    if (!(symbol = dlsym(library, "qpdf_get_page_n"))) return NULL;
    *(void **)&api.qpdf_get_page_n = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_replace_key"))) return NULL;
    *(void **)&api.qpdf_oh_replace_key = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_new_integer"))) return NULL;
    *(void **)&api.qpdf_oh_new_integer = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_unparse"))) return NULL;
    *(void **)&api.qpdf_oh_unparse = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_unparse_resolved"))) return NULL;
    *(void **)&api.qpdf_oh_unparse_resolved = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_object_id"))) return NULL;
    *(void **)&api.qpdf_oh_get_object_id = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_generation"))) return NULL;
    *(void **)&api.qpdf_oh_get_generation = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_get_utf8_value"))) return NULL;
    *(void **)&api.qpdf_oh_get_utf8_value = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_parse"))) return NULL;
    *(void **)&api.qpdf_oh_parse = symbol;
    if (!(symbol = dlsym(library, "qpdf_oh_remove_key"))) return NULL;
    *(void **)&api.qpdf_oh_remove_key = symbol;
    return &api;
}
#endif
