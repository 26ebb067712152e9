#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's permission bits (the `mode_t` of `open(2)`, `chmod(2)` and `mkdir(2)`), as a type.
public struct FilePermissions: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral {
    public let rawValue: mode_t

    public init(rawValue: mode_t) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt32) { rawValue = mode_t(value) }

    /// `0600`: the owner reads and writes; nobody else.
    public static let ownerReadWrite: FilePermissions = 0o600
    /// `0700`: a private directory.
    public static let ownerAll: FilePermissions = 0o700
    /// `0755`: an ordinary directory or program.
    public static let ownerAllOthersReadExecute: FilePermissions = 0o755

    /// `0666` minus the process's umask: what a newly created file would get.
    package static var defaultForNewFiles: FilePermissions {
        let mask = umask(0o022)
        umask(mask)
        return FilePermissions(rawValue: 0o666 & ~mask)
    }
}
