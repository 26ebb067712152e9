#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
// libpng reports errors by longjmp, which must never cross Swift frames. The encoder below keeps
// setjmp/longjmp inside C: Swift calls one function that returns a status and an error message.
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// Growable output buffer; `data` is malloc'd and owned by the caller after encoding (free()).
typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
} quire_png_buffer;

typedef struct {
    char message[256];
} quire_png_error;

static inline void quire_png_write_data(png_structp png, png_bytep bytes, png_size_t length) {
    quire_png_buffer *buffer = (quire_png_buffer *)png_get_io_ptr(png);
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
        if (!grown) png_error(png, "out of memory");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, bytes, length);
    buffer->length += length;
}

static inline void quire_png_flush(png_structp png) { (void)png; }

static inline void quire_png_on_error(png_structp png, png_const_charp message) {
    quire_png_error *error = (quire_png_error *)png_get_error_ptr(png);
    if (error) {
        strncpy(error->message, message ? message : "libpng error", sizeof error->message - 1);
        error->message[sizeof error->message - 1] = 0;
    }
    png_longjmp(png, 1);
}

static inline void quire_png_on_warning(png_structp png, png_const_charp message) {
    (void)png; (void)message;
}

/// Encodes straight (non-premultiplied) 8-bit RGBA rows as a non-interlaced PNG with the given
/// zlib level, one filter (`filter` is a PNG_FILTER_* mask, e.g. PNG_FILTER_SUB) and tEXt chunks.
/// Returns 0 on success (output in `out`), -1 on failure (message in `error`; `out` freed).
static inline int quire_png_encode_rgba(const unsigned char *rgba, int width, int height, size_t stride,
                                        int level, int filter,
                                        const char *const *keys, const char *const *values, int text_count,
                                        quire_png_buffer *out, quire_png_error *error) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, error, quire_png_on_error, quire_png_on_warning);
    if (!png) { strcpy(error->message, "cannot create PNG writer"); return -1; }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    png_textp volatile texts = NULL;
    if (!info) { png_destroy_write_struct(&png, NULL); strcpy(error->message, "cannot create PNG info"); return -1; }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free((void *)rows);
        free((void *)texts);
        free(out->data);
        out->data = NULL; out->length = 0; out->capacity = 0;
        return -1;
    }
    png_set_write_fn(png, out, quire_png_write_data, quire_png_flush);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filter);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (text_count > 0) {
        texts = (png_textp)calloc((size_t)text_count, sizeof(png_text));
        if (!texts) png_error(png, "out of memory");
        for (int i = 0; i < text_count; i++) {
            texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
            texts[i].key = (png_charp)keys[i];
            texts[i].text = (png_charp)values[i];
            texts[i].text_length = strlen(values[i]);
        }
        png_set_text(png, info, texts, text_count);
    }
    png_write_info(png, info);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (!rows) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) rows[y] = (png_bytep)(rgba + (size_t)y * stride);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free((void *)rows);
    free((void *)texts);
    return 0;
}
/// Reads a PNG's header from memory (libpng's simplified API, which keeps its longjmp inside
/// libpng): `image` then holds the width and height. Returns 0 on success; else -1 with the
/// message in `error` (nothing to free).
static inline int quire_png_decode_begin(const unsigned char *data, size_t length, png_image *image,
                                         quire_png_error *error) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(image, data, length)) {
        strncpy(error->message, image->message, sizeof error->message - 1);
        error->message[sizeof error->message - 1] = 0;
        png_image_free(image);
        return -1;
    }
    return 0;
}

/// Decodes the image begun by quire_png_decode_begin as straight 8-bit RGBA rows into `rgba`
/// (width * height * 4 bytes), or, with `rgba` NULL, gives it up. Returns 0 on success; else
/// -1 with the message in `error`. Either way libpng's state is freed.
static inline int quire_png_decode_finish(png_image *image, unsigned char *rgba, quire_png_error *error) {
    if (!rgba) { png_image_free(image); return 0; }
    image->format = PNG_FORMAT_RGBA;
    if (!png_image_finish_read(image, NULL, rgba, 0, NULL)) {
        strncpy(error->message, image->message, sizeof error->message - 1);
        error->message[sizeof error->message - 1] = 0;
        png_image_free(image);
        return -1;
    }
    return 0;
}
#endif
