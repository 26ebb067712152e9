#ifndef QUIRE_SYSTEM_SHIM_H
#define QUIRE_SYSTEM_SHIM_H

// Linux calls that Glibc's Swift module leaves out (they need _GNU_SOURCE, or are variadic),
// declared here so the system layer (QuireSystem) calls them with their real prototypes.

#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

int pipe2(int pipefd[2], int flags);
void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

/// pipe2(2) with O_CLOEXEC: both ends are close-on-exec from the start, so a process spawned
/// concurrently by another thread never inherits them.
static inline int quire_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

/// The calling thread's id (gettid(2) needs _GNU_SOURCE).
static inline pid_t quire_thread_id(void) {
    return (pid_t)syscall(SYS_gettid);
}

/// prctl(PR_SET_PDEATHSIG, signal): the kernel sends `signal` to this process when its parent dies.
static inline int quire_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

/// memmem(3): the first occurrence of `needle` in `haystack`, or NULL.
static inline const void *quire_memmem(const void *haystack, size_t haystack_length,
                                       const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

/// snprintf(buffer, size, "%.*f", places, value): fixed-point text rounded as printf rounds.
/// Called from Swift through `withVaList` instead, each argument is boxed as a `CVarArg` and
/// cast dynamically; the first such cast of a process scans every protocol conformance record
/// of the binary (~1 M instructions of each `quire info`).
static inline int quire_format_fixed(char *buffer, size_t size, int places, double value) {
    return snprintf(buffer, size, "%.*f", places, value);
}

/// timer_create(2) on CLOCK_MONOTONIC whose expiry sends `signal` to the calling thread only
/// (SIGEV_THREAD_ID: Linux; `sigev_notify_thread_id` is a _GNU_SOURCE name for `_sigev_un._tid`).
static inline int quire_thread_timer_create(int signal, timer_t *timer) {
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = signal;
    event._sigev_un._tid = quire_thread_id();
    return timer_create(CLOCK_MONOTONIC, &event, timer);
}

/// SIGRTMIN + offset (SIGRTMIN is a call into glibc, which keeps the first real-time signals).
static inline int quire_realtime_signal(int offset) {
    return SIGRTMIN + offset;
}

/// O_TMPFILE (Linux 3.11; a _GNU_SOURCE name): an unnamed file in a directory, linked later.
/// The value is the kernel's (__O_TMPFILE | O_DIRECTORY), fixed by its ABI.
#ifdef O_TMPFILE
static const int quire_o_tmpfile = O_TMPFILE;
#else
static const int quire_o_tmpfile = 020000000 | O_DIRECTORY;
#endif

/// glibc malloc: blocks of `bytes` or more get mappings of their own (a fixed threshold, which
/// also stops glibc from raising it as large blocks are freed), and free memory at a heap's top
/// is given back once it exceeds `bytes`. Returns 0 when glibc refused a setting.
static inline int quire_malloc_map_large_blocks(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes) && mallopt(M_TRIM_THRESHOLD, bytes);
}

/// glibc malloc's M_PERTURB: while `value` is nonzero, every block malloc hands out from its
/// heaps (not the per-thread cache of small blocks, not a fresh mapping, which is zeros) is
/// filled with the complement of its low byte, and freed blocks with the low byte; 0 stops it.
static inline int quire_malloc_perturb(int value) {
    return mallopt(M_PERTURB, value);
}

/// libstdc++'s std::set_terminate, found by its name (C cannot call C++) when libstdc++ is
/// loaded: an uncaught exception (std::bad_alloc past the memory limit) then ends in abort()
/// without the two lines libstdc++'s default handler writes to standard error first.
static inline void quire_abort_on_uncaught_exception(void) {
    void *symbol = dlsym(NULL, "_ZSt13set_terminatePFvvE");
    if (symbol) ((void (*(*)(void (*)(void)))(void))symbol)(abort);
}

/// malloc_trim(0): free memory in every arena given back to the system.
static inline int quire_malloc_trim(void) {
    return malloc_trim(0);
}

#endif
