/*
 * The floor for any PDF thumbnailer built on poppler-glib (as Quire is): a C program that does
 * only what the thumbnail needs — open the file by descriptor, render the first page fitted to
 * SIZE on white with poppler_page_render, write the PNG with cairo — and nothing else (no type
 * detection, no metadata, no atomic write). bench/thumbnail-bench.sh builds it and reports its
 * time and peak memory beside quire's and pdftocairo's, so the cost of the poppler-glib stack
 * itself (GLib, GObject, GIO) can be told apart from Quire's own.
 *
 * Usage: poppler-glib-floor SIZE INPUT.pdf OUTPUT.png
 */
#include <cairo.h>
#include <fcntl.h>
#include <poppler.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s SIZE INPUT.pdf OUTPUT.png\n", argv[0]);
        return 64;
    }
    int size = atoi(argv[1]);
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0 || size < 1) {
        perror(argv[2]);
        return 66;
    }
    GError *error = NULL;
    PopplerDocument *document = poppler_document_new_from_fd(fd, NULL, &error);
    if (document == NULL) {
        fprintf(stderr, "%s: %s\n", argv[2], error->message);
        return 65;
    }
    PopplerPage *page = poppler_document_get_page(document, 0);
    double width, height;
    poppler_page_get_size(page, &width, &height);
    double scale = size / (width > height ? width : height);
    int pixelWidth = (int)(width * scale + 0.5), pixelHeight = (int)(height * scale + 0.5);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
        pixelWidth > 0 ? pixelWidth : 1, pixelHeight > 0 ? pixelHeight : 1);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_scale(cr, scale, scale);
    poppler_page_render(page, cr);
    cairo_status_t status = cairo_surface_write_to_png(surface, argv[3]);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    g_object_unref(page);
    g_object_unref(document);
    return status == CAIRO_STATUS_SUCCESS ? 0 : 73;
}
