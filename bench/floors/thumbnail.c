/* Floor for `quire thumbnail -s SIZE doc.pdf out.png`: the least a program can do for the same
 * picture through the same libraries — GIO's content sniffing (shared-mime-info) on the first
 * bytes, then poppler-glib opening the file by descriptor and rendering its first page with cairo
 * into an ARGB image whose longer side is SIZE, written as PNG. Linked directly (no dlopen), so
 * it pays nothing quire's lazy loading adds.
 * cc -O2 thumbnail.c $(pkg-config --cflags --libs gio-2.0 poppler-glib cairo) */
#include <cairo.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <math.h>
#include <poppler.h>
#include "sniff.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 4) return 64;
    int size = atoi(argv[1]);
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0 || size <= 0) return 66;
    char *type = floor_sniff(argv[2], fd);
    char *mime = g_content_type_get_mime_type(type);
    if (!mime || strcmp(mime, "application/pdf") != 0) return 65;
    PopplerDocument *document = poppler_document_new_from_fd(fd, NULL, NULL);
    if (!document) return 65;
    PopplerPage *page = poppler_document_get_page(document, 0);
    double width = 0, height = 0;
    poppler_page_get_size(page, &width, &height);
    double scale = size / (width > height ? width : height);
    int pixelsWide = (int)ceil(width * scale), pixelsHigh = (int)ceil(height * scale);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelsWide, pixelsHigh);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_scale(cr, scale, scale);
    poppler_page_render(page, cr);
    cairo_destroy(cr);
    int status = cairo_surface_write_to_png(surface, argv[3]) == CAIRO_STATUS_SUCCESS ? 0 : 73;
    cairo_surface_destroy(surface);
    g_object_unref(page);
    g_object_unref(document);
    g_free(mime);
    g_free(type);
    return status;
}
