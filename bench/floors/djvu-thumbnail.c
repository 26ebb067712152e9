/* Floor for `quire thumbnail -s SIZE book.djvu out.png`: the least a program can do for the same
 * picture through the libraries Quire must use — GIO's content sniffing (shared-mime-info) on
 * the first bytes, then DjVuLibre's decoding API (ddjvuapi) rendering page 1 as RGB whose longer
 * side is SIZE, written as PNG by libpng (zlib level 1, as Quire writes thumbnails). No cairo,
 * no freedesktop keys. Linked directly (no dlopen).
 * cc -O2 djvu-thumbnail.c $(pkg-config --cflags --libs gio-2.0 ddjvuapi libpng) */
#include <fcntl.h>
#include <gio/gio.h>
#include <libdjvu/ddjvuapi.h>
#include <png.h>
#include "sniff.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static void drain(ddjvu_context_t *context) {
    ddjvu_message_wait(context);
    while (ddjvu_message_peek(context)) ddjvu_message_pop(context);
}

int main(int argc, char **argv) {
    if (argc < 4) return 64;
    int size = atoi(argv[1]);
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0 || size <= 0) return 66;
    char *type = floor_sniff(argv[2], fd);
    close(fd);
    char *mime = g_content_type_get_mime_type(type);
    if (!mime || strncmp(mime, "image/vnd.djvu", 14) != 0) return 65;
    ddjvu_context_t *context = ddjvu_context_create("djvu-floor");
    ddjvu_document_t *document = ddjvu_document_create_by_filename_utf8(context, argv[2], TRUE);
    if (!document) return 65;
    while (!ddjvu_document_decoding_done(document)) drain(context);
    if (ddjvu_document_decoding_error(document)) return 65;
    ddjvu_page_t *page = ddjvu_page_create_by_pageno(document, 0);
    if (!page) return 65;
    while (!ddjvu_page_decoding_done(page)) drain(context);
    if (ddjvu_page_decoding_error(page)) return 65;
    int width = ddjvu_page_get_width(page), height = ddjvu_page_get_height(page);
    if (width <= 0 || height <= 0) return 65;
    int wide = width >= height ? size : (int)((long)width * size / height);
    int high = width >= height ? (int)((long)height * size / width) : size;
    if (wide < 1) wide = 1;
    if (high < 1) high = 1;
    ddjvu_rect_t rect = {0, 0, (unsigned)wide, (unsigned)high};
    ddjvu_format_t *format = ddjvu_format_create(DDJVU_FORMAT_RGB24, 0, NULL);
    ddjvu_format_set_row_order(format, 1);
    unsigned char *rgb = malloc((size_t)wide * high * 3);
    if (!rgb || !ddjvu_page_render(page, DDJVU_RENDER_COLOR, &rect, &rect, format, (unsigned long)wide * 3, (char *)rgb)) return 65;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    FILE *out = fopen(argv[3], "wb");
    if (!png || !info || !out || setjmp(png_jmpbuf(png))) return 73;
    png_init_io(png, out);
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_IHDR(png, info, wide, high, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int row = 0; row < high; row++) png_write_row(png, rgb + (size_t)row * wide * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    int status = fclose(out) == 0 ? 0 : 73;
    free(rgb);
    ddjvu_format_release(format);
    ddjvu_page_release(page);
    ddjvu_document_release(document);
    ddjvu_context_release(context);
    g_free(mime);
    g_free(type);
    return status;
}
