// What poppler's process-wide parameters (GlobalParams) cost per document: N opens of one PDF
// (page count, or a small render with "r") through libpoppler-cpp (Splash) or poppler-glib
// (cairo), with no document held (poppler rebuilds the parameters for every document) or with
// one document held open for the whole run (what libQuirePopplerSplash.so does from the moment
// it is loaded; docs/notes/batch.md).
//   g++ -O2 bench/poppler-params.cpp $(pkg-config --cflags --libs poppler-glib poppler-cpp cairo) -o /tmp/poppler-params
//   perf stat -r 5 -e task-clock /tmp/poppler-params cpp|glib 0|1 200 FILE.pdf [r]
#include <poppler.h>
#include <cairo.h>
#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-page.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <cstring>
#include <cstdlib>
#include <cstdio>
int main(int argc, char **argv) {
    const char *mode = argv[1]; bool hold = atoi(argv[2]); int n = atoi(argv[3]); const char *path = argv[4];
    bool render = argc > 5;
    poppler::document *held = hold ? poppler::document::load_from_file(path) : nullptr;
    gchar *uri = g_filename_to_uri(path, nullptr, nullptr);
    for (int i = 0; i < n; i++) {
        if (!strcmp(mode, "cpp")) {
            poppler::document *d = poppler::document::load_from_file(path);
            if (render) { poppler::page *p = d->create_page(0); poppler::page_renderer r; r.render_page(p, 16, 16); delete p; }
            else (void)d->pages();
            delete d;
        } else {
            PopplerDocument *d = poppler_document_new_from_file(uri, nullptr, nullptr);
            if (render) { PopplerPage *p = poppler_document_get_page(d, 0);
                cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 128, 128); cairo_t *cr = cairo_create(s);
                cairo_scale(cr, 0.2, 0.2); poppler_page_render(p, cr); cairo_destroy(cr); cairo_surface_destroy(s); g_object_unref(p); }
            else (void)poppler_document_get_n_pages(d);
            g_object_unref(d);
        }
    }
    delete held;
    return 0;
}
