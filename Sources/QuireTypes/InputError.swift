import QuireSystem

/// Why an input file could not be used. Carries the path, a one-line reason for the user and,
/// where one exists, the underlying `errno`.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem; stable for scripts (`--json` prints `kind.rawValue`).
    public enum Kind: String, Sendable, Codable {
        case notFound = "not-found"
        case permissionDenied = "permission-denied"
        case isDirectory = "is-directory"
        case isFIFO = "is-fifo"
        case isCharacterDevice = "is-character-device"
        case isBlockDevice = "is-block-device"
        case isSocket = "is-socket"
        case notRegularFile = "not-regular-file"
        case symlinkLoop = "symlink-loop"
        case nameTooLong = "name-too-long"
        case empty = "empty"
        case tooLarge = "too-large"
        case changedWhileOpening = "changed-while-opening"
        case ioError = "io-error"
    }

    public let path: DocumentPath
    public let kind: Kind
    /// The error reported by the system call that failed, if any.
    public let errno: Errno?
    /// The reason for the user, without the file name.
    public let reason: String
    /// Which setting would let the file through (a limit it exceeds), if any.
    public let remedy: Remedy?

    public init(path: DocumentPath, kind: Kind, errno: Errno? = nil, reason: String? = nil, remedy: Remedy? = nil) {
        self.path = path
        self.kind = kind
        self.errno = errno
        self.reason = reason ?? Self.defaultReason(kind, errno: errno)
        self.remedy = remedy
    }

    /// `PATH: reason` on one line.
    public var description: String { "\(path): \(reason)" }

    /// The input error for a failed system call on `path`.
    init(_ code: Errno, path: DocumentPath) {
        let kind: Kind = switch code {
        case .noSuchFileOrDirectory, .notDirectory: .notFound
        case .permissionDenied, .notPermitted: .permissionDenied
        case .tooManySymbolicLinks: .symlinkLoop
        case .nameTooLong: .nameTooLong
        case .isDirectory: .isDirectory
        default: .ioError
        }
        self.init(path: path, kind: kind, errno: code)
    }

    private static func defaultReason(_ kind: Kind, errno code: Errno?) -> String {
        switch kind {
        case .notFound: return "no such file"
        case .permissionDenied: return "permission denied (the file is not readable)"
        case .isDirectory: return "is a directory, not a file"
        case .isFIFO: return "is a named pipe (FIFO), not a regular file"
        case .isCharacterDevice: return "is a character device, not a regular file"
        case .isBlockDevice: return "is a block device, not a regular file"
        case .isSocket: return "is a socket, not a regular file"
        case .notRegularFile: return "is not a regular file"
        case .symlinkLoop: return "too many levels of symbolic links (symlink loop)"
        case .nameTooLong: return "file name too long"
        case .empty: return "file is empty (0 bytes)"
        case .tooLarge: return "file is larger than the allowed maximum"
        case .changedWhileOpening: return "file changed while it was being opened"
        case .ioError:
            if let code { return "cannot read file: \(code)" }
            return "cannot read file"
        }
    }
}
