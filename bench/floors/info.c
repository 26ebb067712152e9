/* Floor for `quire info doc.pdf`: the least a program can do for the same answer through the
 * same libraries — GIO's content sniffing (shared-mime-info) on the first bytes, then poppler-glib
 * (loaded with dlopen, as quire does) opening the file by descriptor for its page count.
 * cc -O2 info.c $(pkg-config --cflags --libs gio-2.0) -ldl */
#include <dlfcn.h>
#include <fcntl.h>
#include <gio/gio.h>
#include "sniff.h"
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) return 64;
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 66;
    char *type = floor_sniff(argv[1], fd);
    char *mime = g_content_type_get_mime_type(type);
    void *poppler = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!poppler) return 69;
    void *(*open_fd)(int, const char *, GError **) = (void *(*)(int, const char *, GError **))dlsym(poppler, "poppler_document_new_from_fd");
    int (*n_pages)(void *) = (int (*)(void *))dlsym(poppler, "poppler_document_get_n_pages");
    void *document = open_fd(fd, NULL, NULL);
    if (!document) return 65;
    printf("%s: %s, %d pages\n", argv[1], mime, n_pages(document));
    g_object_unref(document);
    g_free(mime);
    g_free(type);
    return 0;
}
