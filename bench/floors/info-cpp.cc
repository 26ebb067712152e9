// Floor for `quire info doc.pdf` since it reads PDFs through libpoppler-cpp: GIO's content
// sniffing on the first bytes, then poppler-cpp (loaded with dlopen through a tiny C shim would
// add nothing measurable; linked here) opening the file for its page count and first page size.
// g++ -O2 info-cpp.cc $(pkg-config --cflags --libs gio-2.0 poppler-cpp)
#include <fcntl.h>
#include <gio/gio.h>
#include "sniff.h"
#include <poppler-document.h>
#include <poppler-page.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

int main(int argc, char **argv) {
    if (argc < 2) return 64;
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 66;
    char *type = floor_sniff(argv[1], fd);
    char *mime = g_content_type_get_mime_type(type);
    std::unique_ptr<poppler::document> document(poppler::document::load_from_file(argv[1]));
    if (!document) return 65;
    std::unique_ptr<poppler::page> page(document->create_page(0));
    double width = page ? page->page_rect(poppler::crop_box).width() : 0;
    printf("%s: %s, %d pages, %.1f pt wide\n", argv[1], mime, document->pages(), width);
    g_free(mime);
    g_free(type);
    return 0;
}
