#ifndef CGMime_SHIM_H
#define CGMime_SHIM_H
// GMime 3 (e-mail messages), loaded with dlopen the first time a message is opened, as DjVuLibre
// and LibRaw are: a command that never reads mail does not map it.
//
// The declarations Quire uses are given here, as in GMime 3.2's headers: <gmime/gmime.h>
// includes its siblings by a path only pkg-config knows, and pkg-config would also link the
// library. GLib's headers come from CGIO's pkg-config flags. Objects are GObjects: Quire releases
// them with g_object_unref and tells their kinds apart with g_type_check_instance_is_a, both
// from GObject, which quire links already.
#include <glib-object.h>
#include <dlfcn.h>
#include <sys/types.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

typedef struct _GMimeStream GMimeStream;
typedef struct _GMimeParser GMimeParser;
typedef struct _GMimeParserOptions GMimeParserOptions;
typedef struct _GMimeFormatOptions GMimeFormatOptions;
typedef struct _GMimeObject GMimeObject;
typedef struct _GMimeMessage GMimeMessage;
typedef struct _GMimeContentType GMimeContentType;
typedef struct _GMimeDataWrapper GMimeDataWrapper;
typedef struct _InternetAddressList InternetAddressList;

typedef enum {
    GMIME_FORMAT_MESSAGE,
    GMIME_FORMAT_MBOX,
    GMIME_FORMAT_MMDF
} GMimeFormat;

typedef enum {
    GMIME_ADDRESS_TYPE_SENDER,
    GMIME_ADDRESS_TYPE_FROM,
    GMIME_ADDRESS_TYPE_REPLY_TO,
    GMIME_ADDRESS_TYPE_TO,
    GMIME_ADDRESS_TYPE_CC,
    GMIME_ADDRESS_TYPE_BCC
} GMimeAddressType;

typedef enum {
    GMIME_CONTENT_ENCODING_DEFAULT,
    GMIME_CONTENT_ENCODING_7BIT,
    GMIME_CONTENT_ENCODING_8BIT,
    GMIME_CONTENT_ENCODING_BINARY,
    GMIME_CONTENT_ENCODING_BASE64,
    GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE,
    GMIME_CONTENT_ENCODING_UUENCODE
} GMimeContentEncoding;

/// Entry points, resolved with dlsym when the first message is opened.
typedef struct {
    void (*_Nonnull g_mime_init)(void);
    GMimeStream *_Nullable (*_Nonnull g_mime_stream_fs_new_with_bounds)(int fd, gint64 start, gint64 end);
    ssize_t (*_Nonnull g_mime_stream_read)(GMimeStream *_Nonnull stream, char *_Nonnull buffer, size_t length);
    int (*_Nonnull g_mime_stream_reset)(GMimeStream *_Nonnull stream);
    GMimeParser *_Nullable (*_Nonnull g_mime_parser_new_with_stream)(GMimeStream *_Nonnull stream);
    void (*_Nonnull g_mime_parser_set_format)(GMimeParser *_Nonnull parser, GMimeFormat format);
    GMimeMessage *_Nullable (*_Nonnull g_mime_parser_construct_message)(GMimeParser *_Nonnull parser, GMimeParserOptions *_Nullable options);
    const char *_Nullable (*_Nonnull g_mime_message_get_subject)(GMimeMessage *_Nonnull message);
    InternetAddressList *_Nullable (*_Nonnull g_mime_message_get_addresses)(GMimeMessage *_Nonnull message, GMimeAddressType type);
    GDateTime *_Nullable (*_Nonnull g_mime_message_get_date)(GMimeMessage *_Nonnull message);
    GMimeObject *_Nullable (*_Nonnull g_mime_message_get_mime_part)(GMimeMessage *_Nonnull message);
    char *_Nullable (*_Nonnull internet_address_list_to_string)(InternetAddressList *_Nonnull list, GMimeFormatOptions *_Nullable options, gboolean encode);
    int (*_Nonnull internet_address_list_length)(InternetAddressList *_Nonnull list);
    GMimeContentType *_Nullable (*_Nonnull g_mime_object_get_content_type)(GMimeObject *_Nonnull object);
    const char *_Nullable (*_Nonnull g_mime_content_type_get_media_type)(GMimeContentType *_Nonnull type);
    const char *_Nullable (*_Nonnull g_mime_content_type_get_media_subtype)(GMimeContentType *_Nonnull type);
    GType (*_Nonnull g_mime_multipart_get_type)(void);
    int (*_Nonnull g_mime_multipart_get_count)(GMimeObject *_Nonnull multipart);
    GMimeObject *_Nullable (*_Nonnull g_mime_multipart_get_part)(GMimeObject *_Nonnull multipart, int index);
    GType (*_Nonnull g_mime_message_part_get_type)(void);
    GMimeMessage *_Nullable (*_Nonnull g_mime_message_part_get_message)(GMimeObject *_Nonnull part);
    GType (*_Nonnull g_mime_part_get_type)(void);
    const char *_Nullable (*_Nonnull g_mime_part_get_filename)(GMimeObject *_Nonnull part);
    gboolean (*_Nonnull g_mime_part_is_attachment)(GMimeObject *_Nonnull part);
    GMimeDataWrapper *_Nullable (*_Nonnull g_mime_part_get_content)(GMimeObject *_Nonnull part);
    GType (*_Nonnull g_mime_text_part_get_type)(void);
    char *_Nullable (*_Nonnull g_mime_text_part_get_text)(GMimeObject *_Nonnull part);
    GMimeStream *_Nullable (*_Nonnull g_mime_data_wrapper_get_stream)(GMimeDataWrapper *_Nonnull wrapper);
    GMimeContentEncoding (*_Nonnull g_mime_data_wrapper_get_encoding)(GMimeDataWrapper *_Nonnull wrapper);
    ssize_t (*_Nonnull g_mime_data_wrapper_write_to_stream)(GMimeDataWrapper *_Nonnull wrapper, GMimeStream *_Nonnull stream);
    ssize_t (*_Nonnull g_mime_object_write_to_stream)(GMimeObject *_Nonnull object, GMimeFormatOptions *_Nullable options, GMimeStream *_Nonnull stream);
    GMimeStream *_Nullable (*_Nonnull g_mime_stream_mem_new)(void);
    GByteArray *_Nullable (*_Nonnull g_mime_stream_mem_get_byte_array)(GMimeStream *_Nonnull stream);
} quire_gmime_api;

#define QUIRE_GMIME_SYMBOL(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;

/// Loads libgmime-3.0.so.0 (RTLD_LOCAL), resolves every entry point and initialises GMime,
/// once; NULL when the library or a symbol is missing. The result lives for the process.
static inline const quire_gmime_api *_Nullable quire_gmime_api_load(void) {
    static quire_gmime_api api;
    void *library = quire_library_open("libgmime-3.0.so.0");
    if (!library) return NULL;
    void *symbol;
    QUIRE_GMIME_SYMBOL(g_mime_init);
    QUIRE_GMIME_SYMBOL(g_mime_stream_fs_new_with_bounds);
    QUIRE_GMIME_SYMBOL(g_mime_stream_read);
    QUIRE_GMIME_SYMBOL(g_mime_stream_reset);
    QUIRE_GMIME_SYMBOL(g_mime_parser_new_with_stream);
    QUIRE_GMIME_SYMBOL(g_mime_parser_set_format);
    QUIRE_GMIME_SYMBOL(g_mime_parser_construct_message);
    QUIRE_GMIME_SYMBOL(g_mime_message_get_subject);
    QUIRE_GMIME_SYMBOL(g_mime_message_get_addresses);
    QUIRE_GMIME_SYMBOL(g_mime_message_get_date);
    QUIRE_GMIME_SYMBOL(g_mime_message_get_mime_part);
    QUIRE_GMIME_SYMBOL(internet_address_list_to_string);
    QUIRE_GMIME_SYMBOL(internet_address_list_length);
    QUIRE_GMIME_SYMBOL(g_mime_object_get_content_type);
    QUIRE_GMIME_SYMBOL(g_mime_content_type_get_media_type);
    QUIRE_GMIME_SYMBOL(g_mime_content_type_get_media_subtype);
    QUIRE_GMIME_SYMBOL(g_mime_multipart_get_type);
    QUIRE_GMIME_SYMBOL(g_mime_multipart_get_count);
    QUIRE_GMIME_SYMBOL(g_mime_multipart_get_part);
    QUIRE_GMIME_SYMBOL(g_mime_message_part_get_type);
    QUIRE_GMIME_SYMBOL(g_mime_message_part_get_message);
    QUIRE_GMIME_SYMBOL(g_mime_part_get_type);
    QUIRE_GMIME_SYMBOL(g_mime_part_get_filename);
    QUIRE_GMIME_SYMBOL(g_mime_part_is_attachment);
    QUIRE_GMIME_SYMBOL(g_mime_part_get_content);
    QUIRE_GMIME_SYMBOL(g_mime_text_part_get_type);
    QUIRE_GMIME_SYMBOL(g_mime_text_part_get_text);
    QUIRE_GMIME_SYMBOL(g_mime_data_wrapper_get_stream);
    QUIRE_GMIME_SYMBOL(g_mime_data_wrapper_get_encoding);
    QUIRE_GMIME_SYMBOL(g_mime_data_wrapper_write_to_stream);
    QUIRE_GMIME_SYMBOL(g_mime_object_write_to_stream);
    QUIRE_GMIME_SYMBOL(g_mime_stream_mem_new);
    QUIRE_GMIME_SYMBOL(g_mime_stream_mem_get_byte_array);
    api.g_mime_init();
    return &api;
}

/// Whether `object` is a GObject of `type` or a subtype (GMIME_IS_MULTIPART and friends, which
/// are macros over GMime's type functions).
static inline int quire_gmime_is_a(void *_Nonnull object, GType type) {
    return g_type_check_instance_is_a((GTypeInstance *)object, type);
}

#endif
