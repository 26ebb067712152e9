#ifndef QUIRE_LIBRARY_LOADING_H
#define QUIRE_LIBRARY_LOADING_H
// How the C shims dlopen the libraries Quire loads on first use (poppler, cairo, libcups, …).
// Included textually by each shim; see docs/notes/startup.md ("Fifth pass").
#include <dlfcn.h>
#include <stddef.h>

/// dlopen flags for a library loaded on first use.
///
/// - RTLD_LAZY, as the dynamic loader binds every linked program (`pdfinfo`, `lp`): a library
///   built with BIND_NOW (poppler, cairo, libcups) is bound at once either way; the rest bind a
///   function on its first call.
/// - RTLD_LOCAL: nothing loaded here becomes visible to later lookups.
/// - RTLD_DEEPBIND: the library's own dependency tree is searched before the global scope.
///   Without it, each of poppler's ~3,400 symbol references walked quire's 17 start-up objects
///   before reaching poppler itself: 4.5 M of `quire info`'s 41.7 M instructions. The objects
///   both scopes share (libc, libstdc++, GLib) are the same loaded copies, so nothing binds to
///   a second definition; quire itself interposes no C symbol.
///   Not under a sanitizer, whose runtime must interpose malloc for every library (and which
///   refuses RTLD_DEEPBIND): there the flag is left out.
static inline int quire_library_open_flags(void) {
    static int cached;   /* 0: not decided yet */
    int flags = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (flags == 0) {
        int sanitized = dlsym(RTLD_DEFAULT, "__asan_init") != NULL
            || dlsym(RTLD_DEFAULT, "__lsan_do_leak_check") != NULL
            || dlsym(RTLD_DEFAULT, "__tsan_init") != NULL
            || dlsym(RTLD_DEFAULT, "__msan_init") != NULL;
        flags = RTLD_LAZY | RTLD_LOCAL | (sanitized ? 0 : RTLD_DEEPBIND);
        __atomic_store_n(&cached, flags, __ATOMIC_RELAXED);
    }
    return flags;
}

/// dlopen(name) with ``quire_library_open_flags``.
static inline void *_Nullable quire_library_open(const char *_Nonnull name) {
    return dlopen(name, quire_library_open_flags());
}
#endif
