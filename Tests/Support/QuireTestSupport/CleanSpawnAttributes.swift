#if canImport(Glibc)
import Glibc
#endif

/// `posix_spawn` attributes that start a child with no blocked signals and default
/// dispositions, whatever the test runner's threads have blocked or ignored (daemons started
/// from tests must still die on SIGTERM).
final class CleanSpawnAttributes {
    var attributes = posix_spawnattr_t()

    init() {
        posix_spawnattr_init(&attributes)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }

    deinit { posix_spawnattr_destroy(&attributes) }
}
