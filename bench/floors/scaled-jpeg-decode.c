/* The floor under a RAW thumbnail made from the camera's embedded preview: gdk-pixbuf's JPEG
 * loader decoding the preview straight to the thumbnail's size (libjpeg's DCT scaling, as
 * Quire's ImageDecoder asks), nothing else — no process start, no file written. Prints the best
 * of RUNS decodes in ms. bench/photo-bench.sh runs it beside `dcraw -e`, which does not decode.
 * Build: cc -O2 scaled-jpeg-decode.c -o scaled-jpeg-decode $(pkg-config --cflags --libs gdk-pixbuf-2.0)
 * Use:   scaled-jpeg-decode FILE.jpg WIDTH HEIGHT [RUNS] */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s FILE.jpg WIDTH HEIGHT [RUNS]\n", argv[0]); return 64; }
    gchar *bytes = NULL;
    gsize length = 0;
    if (!g_file_get_contents(argv[1], &bytes, &length, NULL)) { fprintf(stderr, "cannot read %s\n", argv[1]); return 66; }
    int width = atoi(argv[2]), height = atoi(argv[3]), runs = argc > 4 ? atoi(argv[4]) : 30;
    double best = 1e9;
    for (int run = 0; run < runs; run++) {
        double start = now_ms();
        GdkPixbufLoader *loader = gdk_pixbuf_loader_new();
        gdk_pixbuf_loader_set_size(loader, width, height);
        gboolean ok = gdk_pixbuf_loader_write(loader, (const guchar *)bytes, length, NULL);
        ok = gdk_pixbuf_loader_close(loader, NULL) && ok;
        if (!ok || gdk_pixbuf_loader_get_pixbuf(loader) == NULL) { fprintf(stderr, "cannot decode %s\n", argv[1]); return 65; }
        g_object_unref(loader);
        double spent = now_ms() - start;
        if (spent < best) best = spent;
    }
    printf("%.2f\n", best);
    g_free(bytes);
    return 0;
}
