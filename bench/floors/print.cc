// Floor for `quire print -d QUEUE -P RANGE doc.pdf`: the least a program can do to check the
// range against the document and the printer before a job exists, with the libraries Quire uses,
// done as well as C++ allows. One thread sniffs the file with GIO and counts its pages with
// poppler-cpp while the main thread looks the queue up (cupsGetNamedDest) and reads its
// capabilities (cupsCopyDestInfo), as `lp` and Quire do; when both are done and the range fits,
// the job is created and the file sent (cupsCreateDestJob, cupsStartDestDocument,
// cupsWriteRequestData, cupsFinishDestDocument). Libraries are linked, not loaded on first use.
// g++ -O2 print.cc $(pkg-config --cflags --libs gio-2.0 poppler-cpp) -lcups -lpthread
// Usage: floor-print QUEUE FIRST LAST FILE
#include <cups/cups.h>
#include <fcntl.h>
#include <gio/gio.h>
#include "sniff.h"
#include <poppler-document.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {
struct Count {
    const char *path;
    int pages = -1;
};

void *countPages(void *argument) {
    auto *count = static_cast<Count *>(argument);
    int fd = open(count->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return nullptr;
    char *type = floor_sniff(count->path, fd);
    close(fd);
    bool pdf = g_content_type_is_a(type, "application/pdf");
    g_free(type);
    if (!pdf) return nullptr;
    std::unique_ptr<poppler::document> document(poppler::document::load_from_file(count->path));
    if (document) count->pages = document->pages();
    return nullptr;
}
}  // namespace

int main(int argc, char **argv) {
    if (argc != 5) return 64;
    const char *queue = argv[1], *path = argv[4];
    int first = atoi(argv[2]), last = atoi(argv[3]);
    Count count{path};
    pthread_t counter;
    if (pthread_create(&counter, nullptr, countPages, &count) != 0) return 71;
    cups_dest_t *dest = cupsGetNamedDest(CUPS_HTTP_DEFAULT, queue, nullptr);
    cups_dinfo_t *info = dest ? cupsCopyDestInfo(CUPS_HTTP_DEFAULT, dest) : nullptr;
    pthread_join(counter, nullptr);
    if (!dest || !info) return 69;
    if (count.pages < 1 || first < 1 || last < first || last > count.pages) return 65;
    char range[32];
    snprintf(range, sizeof range, "%d-%d", first, last);
    cups_option_t *options = nullptr;
    int optionCount = cupsAddOption("page-ranges", range, 0, &options);
    int job = 0;
    if (cupsCreateDestJob(CUPS_HTTP_DEFAULT, dest, info, &job, "floor", optionCount, options) != IPP_STATUS_OK) return 69;
    if (cupsStartDestDocument(CUPS_HTTP_DEFAULT, dest, info, job, path, CUPS_FORMAT_PDF, 0, nullptr, 1) != HTTP_STATUS_CONTINUE) return 69;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 66;
    static char buffer[65536];
    ssize_t got;
    while ((got = read(fd, buffer, sizeof buffer)) > 0) {
        if (cupsWriteRequestData(CUPS_HTTP_DEFAULT, buffer, (size_t)got) != HTTP_STATUS_CONTINUE) return 69;
    }
    close(fd);
    if (cupsFinishDestDocument(CUPS_HTTP_DEFAULT, dest, info) != IPP_STATUS_OK) return 69;
    printf("request id is %s-%d (1 file(s))\n", queue, job);
    return 0;
}
