#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Path text operations for paths Quire builds from UTF-8 strings (XDG directories, fixed
/// names, cache roots); file names from the user stay bytes (``DocumentPath``).
package enum DirectoryPath {
    /// The directory part of `path`: "/a/b/c" → "/a/b", "/a" → "/", "c" → "" (trailing slashes
    /// ignored).
    package static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        if slash == 0 { return "/" }
        var end = slash
        while end > 1 && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The home directory: `home` (the value of `$HOME`) when set and not empty, else the
    /// password database's entry for this user, else `/`.
    package static func home(_ home: String?) -> String {
        if let home, !home.isEmpty { return home }
        return (getpwuid(getuid())?.pointee.pw_dir).map { String(cString: $0) } ?? "/"
    }

    /// Creates `path` and any missing parents (`mkdir -p`); nil on success, else the error.
    package static func create(_ path: String, permissions: FilePermissions = .ownerAllOthersReadExecute) -> Errno? {
        var info = stat()
        if stat(path, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR ? nil : .notDirectory }
        let parentPath = parent(of: path)
        if !parentPath.isEmpty && parentPath != path, let failure = create(parentPath, permissions: permissions) { return failure }
        if mkdir(path, permissions.rawValue) == 0 || errno == EEXIST { return nil }
        return .current
    }
}
