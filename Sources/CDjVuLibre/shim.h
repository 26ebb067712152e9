#ifndef CDjVuLibre_SHIM_H
#define CDjVuLibre_SHIM_H
// DjVuLibre's decoding API (ddjvuapi), loaded on first use as libarchive and SQLite are: linking
// it would cost every quire process its relocation (it brings libstdc++ and libjpeg), so the
// module map links nothing and the entry points are resolved with dlopen/dlsym the first time a
// DjVu document is opened.
#include <libdjvu/ddjvuapi.h>
#include <libdjvu/miniexp.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

/// Entry points, resolved with dlsym when the first DjVu document is opened.
typedef struct {
    __typeof__(&ddjvu_context_create) _Nonnull ddjvu_context_create;
    __typeof__(&ddjvu_context_release) _Nonnull ddjvu_context_release;
    __typeof__(&ddjvu_cache_set_size) _Nonnull ddjvu_cache_set_size;
    __typeof__(&ddjvu_message_wait) _Nonnull ddjvu_message_wait;
    __typeof__(&ddjvu_message_peek) _Nonnull ddjvu_message_peek;
    __typeof__(&ddjvu_message_pop) _Nonnull ddjvu_message_pop;
    __typeof__(&ddjvu_job_status) _Nonnull ddjvu_job_status;
    __typeof__(&ddjvu_job_release) _Nonnull ddjvu_job_release;
    __typeof__(&ddjvu_document_create) _Nonnull ddjvu_document_create;
    __typeof__(&ddjvu_document_job) _Nonnull ddjvu_document_job;
    __typeof__(&ddjvu_stream_write) _Nonnull ddjvu_stream_write;
    __typeof__(&ddjvu_stream_close) _Nonnull ddjvu_stream_close;
    __typeof__(&ddjvu_document_get_pagenum) _Nonnull ddjvu_document_get_pagenum;
    __typeof__(&ddjvu_document_get_pageinfo_imp) _Nonnull ddjvu_document_get_pageinfo_imp;
    __typeof__(&ddjvu_page_create_by_pageno) _Nonnull ddjvu_page_create_by_pageno;
    __typeof__(&ddjvu_page_job) _Nonnull ddjvu_page_job;
    __typeof__(&ddjvu_page_render) _Nonnull ddjvu_page_render;
    __typeof__(&ddjvu_format_create) _Nonnull ddjvu_format_create;
    __typeof__(&ddjvu_format_set_row_order) _Nonnull ddjvu_format_set_row_order;
    __typeof__(&ddjvu_format_set_y_direction) _Nonnull ddjvu_format_set_y_direction;
    __typeof__(&ddjvu_format_release) _Nonnull ddjvu_format_release;
    __typeof__(&ddjvu_document_get_pagetext) _Nonnull ddjvu_document_get_pagetext;
    __typeof__(&ddjvu_miniexp_release) _Nonnull ddjvu_miniexp_release;
    __typeof__(&miniexp_to_name) _Nonnull miniexp_to_name;
    __typeof__(&miniexp_stringp) _Nonnull miniexp_stringp;
    __typeof__(&miniexp_to_str) _Nonnull miniexp_to_str;
} quire_djvu_api;

#define QUIRE_DJVU_SYMBOL(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;

/// Loads libdjvulibre.so.21 (RTLD_LOCAL) and resolves every entry point once; NULL when the
/// library or a symbol is missing. The result lives for the life of the process.
static inline const quire_djvu_api *_Nullable quire_djvu_api_load(void) {
    static quire_djvu_api api;
    void *library = quire_library_open("libdjvulibre.so.21");
    if (!library) return NULL;
    void *symbol;
    QUIRE_DJVU_SYMBOL(ddjvu_context_create);
    QUIRE_DJVU_SYMBOL(ddjvu_context_release);
    QUIRE_DJVU_SYMBOL(ddjvu_cache_set_size);
    QUIRE_DJVU_SYMBOL(ddjvu_message_wait);
    QUIRE_DJVU_SYMBOL(ddjvu_message_peek);
    QUIRE_DJVU_SYMBOL(ddjvu_message_pop);
    QUIRE_DJVU_SYMBOL(ddjvu_job_status);
    QUIRE_DJVU_SYMBOL(ddjvu_job_release);
    QUIRE_DJVU_SYMBOL(ddjvu_document_create);
    QUIRE_DJVU_SYMBOL(ddjvu_document_job);
    QUIRE_DJVU_SYMBOL(ddjvu_stream_write);
    QUIRE_DJVU_SYMBOL(ddjvu_stream_close);
    QUIRE_DJVU_SYMBOL(ddjvu_document_get_pagenum);
    QUIRE_DJVU_SYMBOL(ddjvu_document_get_pageinfo_imp);
    QUIRE_DJVU_SYMBOL(ddjvu_page_create_by_pageno);
    QUIRE_DJVU_SYMBOL(ddjvu_page_job);
    QUIRE_DJVU_SYMBOL(ddjvu_page_render);
    QUIRE_DJVU_SYMBOL(ddjvu_format_create);
    QUIRE_DJVU_SYMBOL(ddjvu_format_set_row_order);
    QUIRE_DJVU_SYMBOL(ddjvu_format_set_y_direction);
    QUIRE_DJVU_SYMBOL(ddjvu_format_release);
    QUIRE_DJVU_SYMBOL(ddjvu_document_get_pagetext);
    QUIRE_DJVU_SYMBOL(ddjvu_miniexp_release);
    QUIRE_DJVU_SYMBOL(miniexp_to_name);
    QUIRE_DJVU_SYMBOL(miniexp_stringp);
    QUIRE_DJVU_SYMBOL(miniexp_to_str);
    return &api;
}

/// The message's kind (a C union Swift reads through these accessors).
static inline ddjvu_message_tag_t quire_djvu_message_tag(const ddjvu_message_t *_Nonnull message) {
    return message->m_any.tag;
}
static inline int quire_djvu_newstream_id(const ddjvu_message_t *_Nonnull message) {
    return message->m_newstream.streamid;
}
/// The auxiliary file's base name (NULL for the main file).
static inline const char *_Nullable quire_djvu_newstream_name(const ddjvu_message_t *_Nonnull message) {
    return message->m_newstream.name;
}
static inline const char *_Nullable quire_djvu_error_text(const ddjvu_message_t *_Nonnull message) {
    return message->m_error.message;
}

/// miniexp's inline accessors and constants, as functions Swift can call.
static inline miniexp_t _Nullable quire_miniexp_car(miniexp_t _Nullable p) { return miniexp_car(p); }
static inline miniexp_t _Nullable quire_miniexp_cdr(miniexp_t _Nullable p) { return miniexp_cdr(p); }
static inline int quire_miniexp_consp(miniexp_t _Nullable p) { return miniexp_consp(p); }
static inline int quire_miniexp_numberp(miniexp_t _Nullable p) { return miniexp_numberp(p); }
static inline int quire_miniexp_symbolp(miniexp_t _Nullable p) { return miniexp_symbolp(p); }
static inline int quire_miniexp_to_int(miniexp_t _Nullable p) { return miniexp_to_int(p); }
static inline int quire_miniexp_is_dummy(miniexp_t _Nullable p) { return p == miniexp_dummy; }

/// ddjvu_page_get_width and friends are real functions, but a page's size is read from
/// ddjvu_document_get_pageinfo (no page decoded); this is its struct size for the _imp call.
static inline unsigned int quire_djvu_pageinfo_size(void) { return sizeof(ddjvu_pageinfo_t); }

#endif
