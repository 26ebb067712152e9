#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Path text operations for paths Quire builds from UTF-8 strings (XDG directories, fixed
/// names, cache roots); file names from the user stay bytes (``DocumentPath``).
public enum DirectoryPath {
    /// The directory part of `path`: "/a/b/c" → "/a/b", "/a" → "/", "c" → "" (trailing slashes
    /// ignored).
    public static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == 0 { return "/" }
        var end = slash
        while end > 1 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Creates `path` and any missing parents (`mkdir -p`); nil on success, else the errno.
    public static func create(_ path: String, mode: mode_t = 0o755) -> Int32? {
        var isDirectory = stat()
        if stat(path, &isDirectory) == 0 { return (isDirectory.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR }
        let parentPath = parent(of: path)
        if !parentPath.isEmpty && parentPath != path, let failure = create(parentPath, mode: mode) { return failure }
        if mkdir(path, mode) == 0 || errno == EEXIST { return nil }
        return errno
    }
}
