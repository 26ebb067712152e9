#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs an office call with descriptors 1 and 2 pointed at /dev/null: LibreOffice prints notes
/// ("No language allowlisted…", font warnings) that would mix into what Quire writes on standard
/// output (a PNG, the render protocol) and break its one-line errors on standard error.
enum StandardOutputDiversion {
    static func run<R>(_ body: () -> R) -> R {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        let savedOutput = fcntl(1, F_DUPFD_CLOEXEC, 3)
        let savedError = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard null >= 0, savedOutput >= 0, savedError >= 0 else {
            for fd in [null, savedOutput, savedError] where fd >= 0 { close(fd) }
            return body()
        }
        _ = dup2(null, 1)
        _ = dup2(null, 2)
        close(null)
        defer {
            _ = dup2(savedOutput, 1)
            _ = dup2(savedError, 2)
            close(savedOutput)
            close(savedError)
        }
        return body()
    }
}
