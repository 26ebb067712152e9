/* The floors' type detection, as Quire's: GIO's content sniffing (shared-mime-info) on the first
 * 4 KiB of the open file and its name. Returns the content type (g_free it); the file offset is
 * left where it was (pread). */
#ifndef FLOOR_SNIFF_H
#define FLOOR_SNIFF_H
#include <gio/gio.h>
#include <unistd.h>

static inline char *floor_sniff(const char *path, int fd) {
    unsigned char head[4096];
    ssize_t got = pread(fd, head, sizeof head, 0);
    gboolean uncertain = FALSE;
    return g_content_type_guess(path, head, got > 0 ? (gsize)got : 0, &uncertain);
}
#endif
