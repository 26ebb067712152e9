#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Runs a library call with descriptors 1 and 2 pointed at /dev/null: LibreOffice prints notes
/// ("No language allowlisted…", font warnings), libjxl where its decoder failed, that would mix
/// into what Quire writes on standard output (a PNG, the render protocol) and break its one-line
/// errors on standard error.
///
/// The descriptors are the process's, so overlapping calls from several threads share one
/// diversion: the first saves the real descriptors, the last puts them back. (Each call saving
/// and restoring its own could interleave so that the second saved /dev/null and restored it
/// last: standard output stayed /dev/null for the rest of the process. A test run that loads
/// LibreOffice from parallel tests lost its results that way and ended with status 0.)
enum StandardOutputDiversion {
    private struct State {
        var depth = 0
        var savedOutput: Int32 = -1
        var savedError: Int32 = -1
    }
    private static let state = Mutex(State())

    static func run<R>(_ body: () -> R) -> R {
        let diverted = state.withLock { state -> Bool in
            if state.depth == 0 {
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                let savedOutput = fcntl(1, F_DUPFD_CLOEXEC, 3)
                let savedError = fcntl(2, F_DUPFD_CLOEXEC, 3)
                guard null >= 0, savedOutput >= 0, savedError >= 0 else {
                    for fd in [null, savedOutput, savedError] where fd >= 0 { close(fd) }
                    return false
                }
                _ = dup2(null, 1)
                _ = dup2(null, 2)
                close(null)
                state.savedOutput = savedOutput
                state.savedError = savedError
            }
            state.depth += 1
            return true
        }
        guard diverted else { return body() }
        defer {
            state.withLock { state in
                state.depth -= 1
                if state.depth == 0 {
                    _ = dup2(state.savedOutput, 1)
                    _ = dup2(state.savedError, 2)
                    close(state.savedOutput)
                    close(state.savedError)
                    state.savedOutput = -1
                    state.savedError = -1
                }
            }
        }
        return body()
    }
}
