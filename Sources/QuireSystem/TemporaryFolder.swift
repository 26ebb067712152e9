#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where Quire's own temporary files go: `TMPDIR` when it is set and can be written, else
/// `/tmp`. A sandbox (GNOME's thumbnail factory, Quire's worker) may show only its own /tmp
/// while the user's TMPDIR (a folder under /run/user, a test run's own) is inherited but not
/// there.
package enum TemporaryFolder {
    package static var path: String {
        if let value = getenv("TMPDIR") {
            let directory = String(cString: value)
            if !directory.isEmpty, access(directory, W_OK | X_OK) == 0 { return directory }
        }
        return "/tmp"
    }
}
