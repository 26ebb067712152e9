#ifndef CSQLite_SHIM_H
#define CSQLite_SHIM_H
// Loaded lazily, as libarchive is: linking libsqlite3 would cost every quire process (a PDF
// thumbnail included) its relocation, so the module map links nothing and the entry points are
// resolved with dlopen/dlsym the first time a database is opened.
#include <sqlite3.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

/// Entry points, resolved with dlsym when the first database is opened.
typedef struct {
    __typeof__(&sqlite3_open_v2) _Nonnull sqlite3_open_v2;
    __typeof__(&sqlite3_close_v2) _Nonnull sqlite3_close_v2;
    __typeof__(&sqlite3_prepare_v2) _Nonnull sqlite3_prepare_v2;
    __typeof__(&sqlite3_step) _Nonnull sqlite3_step;
    __typeof__(&sqlite3_finalize) _Nonnull sqlite3_finalize;
    __typeof__(&sqlite3_column_count) _Nonnull sqlite3_column_count;
    __typeof__(&sqlite3_column_type) _Nonnull sqlite3_column_type;
    __typeof__(&sqlite3_column_text) _Nonnull sqlite3_column_text;
    __typeof__(&sqlite3_column_bytes) _Nonnull sqlite3_column_bytes;
    __typeof__(&sqlite3_column_int64) _Nonnull sqlite3_column_int64;
    __typeof__(&sqlite3_column_double) _Nonnull sqlite3_column_double;
    __typeof__(&sqlite3_column_name) _Nonnull sqlite3_column_name;
    __typeof__(&sqlite3_errmsg) _Nonnull sqlite3_errmsg;
    __typeof__(&sqlite3_extended_errcode) _Nonnull sqlite3_extended_errcode;
    __typeof__(&sqlite3_errstr) _Nonnull sqlite3_errstr;
    __typeof__(&sqlite3_progress_handler) _Nonnull sqlite3_progress_handler;
    __typeof__(&sqlite3_bind_text) _Nonnull sqlite3_bind_text;
    __typeof__(&sqlite3_bind_int64) _Nonnull sqlite3_bind_int64;
    __typeof__(&sqlite3_interrupt) _Nonnull sqlite3_interrupt;
    __typeof__(&sqlite3_libversion) _Nonnull sqlite3_libversion;
} quire_sqlite_api;

/// SQLITE_TRANSIENT (a macro Swift cannot import): SQLite copies a bound value at once.
static inline sqlite3_destructor_type _Nullable quire_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Loads libsqlite3.so.0 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process.
static inline const quire_sqlite_api *_Nullable quire_sqlite_api_load(void) {
    static quire_sqlite_api api;
    void *library = quire_library_open("libsqlite3.so.0");
    if (!library) return NULL;
    void *symbol;
    if (!(symbol = dlsym(library, "sqlite3_open_v2"))) return NULL;
    *(void **)&api.sqlite3_open_v2 = symbol;
    if (!(symbol = dlsym(library, "sqlite3_close_v2"))) return NULL;
    *(void **)&api.sqlite3_close_v2 = symbol;
    if (!(symbol = dlsym(library, "sqlite3_prepare_v2"))) return NULL;
    *(void **)&api.sqlite3_prepare_v2 = symbol;
    if (!(symbol = dlsym(library, "sqlite3_step"))) return NULL;
    *(void **)&api.sqlite3_step = symbol;
    if (!(symbol = dlsym(library, "sqlite3_finalize"))) return NULL;
    *(void **)&api.sqlite3_finalize = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_count"))) return NULL;
    *(void **)&api.sqlite3_column_count = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_type"))) return NULL;
    *(void **)&api.sqlite3_column_type = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_text"))) return NULL;
    *(void **)&api.sqlite3_column_text = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_bytes"))) return NULL;
    *(void **)&api.sqlite3_column_bytes = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_int64"))) return NULL;
    *(void **)&api.sqlite3_column_int64 = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_double"))) return NULL;
    *(void **)&api.sqlite3_column_double = symbol;
    if (!(symbol = dlsym(library, "sqlite3_column_name"))) return NULL;
    *(void **)&api.sqlite3_column_name = symbol;
    if (!(symbol = dlsym(library, "sqlite3_errmsg"))) return NULL;
    *(void **)&api.sqlite3_errmsg = symbol;
    if (!(symbol = dlsym(library, "sqlite3_extended_errcode"))) return NULL;
    *(void **)&api.sqlite3_extended_errcode = symbol;
    if (!(symbol = dlsym(library, "sqlite3_errstr"))) return NULL;
    *(void **)&api.sqlite3_errstr = symbol;
    if (!(symbol = dlsym(library, "sqlite3_progress_handler"))) return NULL;
    *(void **)&api.sqlite3_progress_handler = symbol;
    if (!(symbol = dlsym(library, "sqlite3_bind_text"))) return NULL;
    *(void **)&api.sqlite3_bind_text = symbol;
    if (!(symbol = dlsym(library, "sqlite3_bind_int64"))) return NULL;
    *(void **)&api.sqlite3_bind_int64 = symbol;
    if (!(symbol = dlsym(library, "sqlite3_interrupt"))) return NULL;
    *(void **)&api.sqlite3_interrupt = symbol;
    if (!(symbol = dlsym(library, "sqlite3_libversion"))) return NULL;
    *(void **)&api.sqlite3_libversion = symbol;
    return &api;
}
#endif
