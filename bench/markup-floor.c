/* The floor under issue 36's markup save bar (one highlight saved into thousand-pages.pdf in at
 * most 1.5x the time of copying the file): how long the PDF libraries Quire saves with take only
 * to open that file, before anything is added or written. libqpdf: read the cross-reference and
 * the catalog; poppler-glib: open the document and page 500. Wall and CPU milliseconds a run
 * (CPU time holds under load). Built and run by bench/markup-floor.sh. */
#include <poppler/glib/poppler.h>
#include <qpdf/qpdf-c.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double wall(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: markup-floor FILE.pdf [RUNS]\n"); return 64; }
    int runs = argc > 2 ? atoi(argv[2]) : 7;
    char *uri = g_filename_to_uri(argv[1], NULL, NULL);
    if (!uri) { fprintf(stderr, "markup-floor: %s is not an absolute path\n", argv[1]); return 64; }
    for (int run = 0; run < runs; run++) {
        double w0 = wall(), c0 = cpu();
        qpdf_data qpdf = qpdf_init();
        qpdf_silence_errors(qpdf);
        if (qpdf_read(qpdf, argv[1], NULL) & QPDF_ERRORS) { fprintf(stderr, "markup-floor: qpdf cannot read %s\n", argv[1]); return 65; }
        (void)qpdf_get_root(qpdf);
        double w1 = wall(), c1 = cpu();
        qpdf_cleanup(&qpdf);
        double w2 = wall(), c2 = cpu();
        GError *error = NULL;
        PopplerDocument *document = poppler_document_new_from_file(uri, NULL, &error);
        if (!document) { fprintf(stderr, "markup-floor: poppler cannot open %s\n", argv[1]); return 65; }
        PopplerPage *page = poppler_document_get_page(document, poppler_document_get_n_pages(document) / 2);
        double w3 = wall(), c3 = cpu();
        if (page) g_object_unref(page);
        g_object_unref(document);
        printf("  open only: qpdf %.1f ms (cpu %.1f), poppler %.1f ms (cpu %.1f)\n", w1 - w0, c1 - c0, w3 - w2, c3 - c2);
    }
    g_free(uri);
    return 0;
}
