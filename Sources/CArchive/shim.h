#ifndef CArchive_SHIM_H
#define CArchive_SHIM_H
// Loaded lazily: linking this library would cost every quire process (a thumbnail of a PDF
// included) its start-up time and memory, so the module map links nothing and the entry points
// are resolved with dlopen/dlsym the first time the family is rendered.
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

/// Entry points, resolved with dlsym when the family is first rendered.
typedef struct {
    __typeof__(&archive_read_new) _Nonnull archive_read_new;
    __typeof__(&archive_read_support_format_zip) _Nonnull archive_read_support_format_zip;
    __typeof__(&archive_read_open_filename) _Nonnull archive_read_open_filename;
    __typeof__(&archive_read_free) _Nonnull archive_read_free;
    __typeof__(&archive_error_string) _Nonnull archive_error_string;
    __typeof__(&archive_read_next_header) _Nonnull archive_read_next_header;
    __typeof__(&archive_entry_pathname_utf8) _Nonnull archive_entry_pathname_utf8;
    __typeof__(&archive_entry_pathname) _Nonnull archive_entry_pathname;
    __typeof__(&archive_entry_filetype) _Nonnull archive_entry_filetype;
    __typeof__(&archive_read_data) _Nonnull archive_read_data;
    __typeof__(&archive_read_support_filter_all) _Nonnull archive_read_support_filter_all;
    __typeof__(&archive_read_support_format_all) _Nonnull archive_read_support_format_all;
    __typeof__(&archive_read_support_format_empty) _Nonnull archive_read_support_format_empty;
    __typeof__(&archive_entry_size) _Nonnull archive_entry_size;
    __typeof__(&archive_entry_size_is_set) _Nonnull archive_entry_size_is_set;
    __typeof__(&archive_entry_mtime) _Nonnull archive_entry_mtime;
    __typeof__(&archive_entry_symlink_utf8) _Nonnull archive_entry_symlink_utf8;
    __typeof__(&archive_entry_hardlink_utf8) _Nonnull archive_entry_hardlink_utf8;
    __typeof__(&archive_read_data_skip) _Nonnull archive_read_data_skip;
    __typeof__(&archive_format_name) _Nonnull archive_format_name;
    __typeof__(&archive_filter_count) _Nonnull archive_filter_count;
    __typeof__(&archive_filter_name) _Nonnull archive_filter_name;
    __typeof__(&archive_entry_is_encrypted) _Nonnull archive_entry_is_encrypted;
    __typeof__(&archive_filter_bytes) _Nonnull archive_filter_bytes;
    __typeof__(&archive_read_support_format_raw) _Nonnull archive_read_support_format_raw;
    __typeof__(&archive_read_support_format_7zip) _Nonnull archive_read_support_format_7zip;
    __typeof__(&archive_read_support_format_ar) _Nonnull archive_read_support_format_ar;
    __typeof__(&archive_read_support_format_cab) _Nonnull archive_read_support_format_cab;
    __typeof__(&archive_read_support_format_cpio) _Nonnull archive_read_support_format_cpio;
    __typeof__(&archive_read_support_format_iso9660) _Nonnull archive_read_support_format_iso9660;
    __typeof__(&archive_read_support_format_lha) _Nonnull archive_read_support_format_lha;
    __typeof__(&archive_read_support_format_rar) _Nonnull archive_read_support_format_rar;
    __typeof__(&archive_read_support_format_rar5) _Nonnull archive_read_support_format_rar5;
    __typeof__(&archive_read_support_format_tar) _Nonnull archive_read_support_format_tar;
    __typeof__(&archive_read_support_format_xar) _Nonnull archive_read_support_format_xar;
} quire_archive_api;

/// Loads libarchive.so.13 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process.
static inline const quire_archive_api *_Nullable quire_archive_api_load(void) {
    static quire_archive_api api;
    void *library = quire_library_open("libarchive.so.13");
    if (!library) return NULL;
    void *symbol;
    if (!(symbol = dlsym(library, "archive_read_new"))) return NULL;
    *(void **)&api.archive_read_new = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_zip"))) return NULL;
    *(void **)&api.archive_read_support_format_zip = symbol;
    if (!(symbol = dlsym(library, "archive_read_open_filename"))) return NULL;
    *(void **)&api.archive_read_open_filename = symbol;
    if (!(symbol = dlsym(library, "archive_read_free"))) return NULL;
    *(void **)&api.archive_read_free = symbol;
    if (!(symbol = dlsym(library, "archive_error_string"))) return NULL;
    *(void **)&api.archive_error_string = symbol;
    if (!(symbol = dlsym(library, "archive_read_next_header"))) return NULL;
    *(void **)&api.archive_read_next_header = symbol;
    if (!(symbol = dlsym(library, "archive_entry_pathname_utf8"))) return NULL;
    *(void **)&api.archive_entry_pathname_utf8 = symbol;
    if (!(symbol = dlsym(library, "archive_entry_pathname"))) return NULL;
    *(void **)&api.archive_entry_pathname = symbol;
    if (!(symbol = dlsym(library, "archive_entry_filetype"))) return NULL;
    *(void **)&api.archive_entry_filetype = symbol;
    if (!(symbol = dlsym(library, "archive_read_data"))) return NULL;
    *(void **)&api.archive_read_data = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_filter_all"))) return NULL;
    *(void **)&api.archive_read_support_filter_all = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_all"))) return NULL;
    *(void **)&api.archive_read_support_format_all = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_empty"))) return NULL;
    *(void **)&api.archive_read_support_format_empty = symbol;
    if (!(symbol = dlsym(library, "archive_entry_size"))) return NULL;
    *(void **)&api.archive_entry_size = symbol;
    if (!(symbol = dlsym(library, "archive_entry_size_is_set"))) return NULL;
    *(void **)&api.archive_entry_size_is_set = symbol;
    if (!(symbol = dlsym(library, "archive_entry_mtime"))) return NULL;
    *(void **)&api.archive_entry_mtime = symbol;
    if (!(symbol = dlsym(library, "archive_entry_symlink_utf8"))) return NULL;
    *(void **)&api.archive_entry_symlink_utf8 = symbol;
    if (!(symbol = dlsym(library, "archive_entry_hardlink_utf8"))) return NULL;
    *(void **)&api.archive_entry_hardlink_utf8 = symbol;
    if (!(symbol = dlsym(library, "archive_read_data_skip"))) return NULL;
    *(void **)&api.archive_read_data_skip = symbol;
    if (!(symbol = dlsym(library, "archive_format_name"))) return NULL;
    *(void **)&api.archive_format_name = symbol;
    if (!(symbol = dlsym(library, "archive_filter_count"))) return NULL;
    *(void **)&api.archive_filter_count = symbol;
    if (!(symbol = dlsym(library, "archive_filter_name"))) return NULL;
    *(void **)&api.archive_filter_name = symbol;
    if (!(symbol = dlsym(library, "archive_entry_is_encrypted"))) return NULL;
    *(void **)&api.archive_entry_is_encrypted = symbol;
    if (!(symbol = dlsym(library, "archive_filter_bytes"))) return NULL;
    *(void **)&api.archive_filter_bytes = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_raw"))) return NULL;
    *(void **)&api.archive_read_support_format_raw = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_7zip"))) return NULL;
    *(void **)&api.archive_read_support_format_7zip = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_ar"))) return NULL;
    *(void **)&api.archive_read_support_format_ar = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_cab"))) return NULL;
    *(void **)&api.archive_read_support_format_cab = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_cpio"))) return NULL;
    *(void **)&api.archive_read_support_format_cpio = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_iso9660"))) return NULL;
    *(void **)&api.archive_read_support_format_iso9660 = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_lha"))) return NULL;
    *(void **)&api.archive_read_support_format_lha = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_rar"))) return NULL;
    *(void **)&api.archive_read_support_format_rar = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_rar5"))) return NULL;
    *(void **)&api.archive_read_support_format_rar5 = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_tar"))) return NULL;
    *(void **)&api.archive_read_support_format_tar = symbol;
    if (!(symbol = dlsym(library, "archive_read_support_format_xar"))) return NULL;
    *(void **)&api.archive_read_support_format_xar = symbol;
    return &api;
}
#endif
