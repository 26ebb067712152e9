#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// Where a path is, for a worker that runs in `/` inside its sandbox: absolute forms and the
/// directories to let it read.
extension DocumentPath {
    /// The path made absolute against the working directory (unchanged when it already is).
    func absolute() -> DocumentPath {
        guard bytes.first != UInt8(ascii: "/") else { return self }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return self }
        var directory = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        if directory.last != UInt8(ascii: "/") { directory.append(UInt8(ascii: "/")) }
        return DocumentPath(bytes: directory + bytes)
    }

    /// The directory that holds this (absolute) path.
    var parentDirectory: DocumentPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return DocumentPath(".") }
        return slash == 0 ? DocumentPath("/") : DocumentPath(bytes: bytes[..<slash])
    }

    /// The path with every symbolic link resolved (`realpath(3)`); nil when it cannot be.
    func resolvedRealPath() -> DocumentPath? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let resolved = withCString { realpath($0, &buffer) }
        guard resolved != nil else { return nil }
        return DocumentPath(bytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }
}
