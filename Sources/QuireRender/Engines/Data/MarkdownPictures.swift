#if canImport(Glibc)
import Glibc
#endif
import QuireTypes
import QuireSystem

/// The pictures a Markdown file shows from its own folder (`![Screenshot](docs/shot.png)`), read
/// for its pages as GitHub shows them: a path relative to the file, inside the file's folder.
///
/// Never read: an address (`http://`, `//host`, `file:`, `data:`), an absolute path, a path
/// with `..`, or one that leads out of the folder through a link — a document cannot make Quire
/// show `/etc/shadow` or reach the network. At most ``maximumCount`` pictures of at most
/// ``maximumBytes`` each; a file that is not a regular file is refused as every input is
/// (``InputFile``).
struct MarkdownPictures {
    /// Most pictures read from one file.
    static let maximumCount = 64
    /// Largest picture file read.
    static let maximumBytes: Int64 = 16 << 20

    /// The Markdown file's folder, its links resolved.
    private let folder: String
    private(set) var count = 0

    /// Pictures beside `document`; nil when its folder cannot be resolved.
    init?(beside document: DocumentPath) {
        let path = String(decoding: document.bytes, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else {
            guard let folder = Self.resolved(".") else { return nil }
            self.folder = folder
            return
        }
        guard let folder = Self.resolved(slash == path.startIndex ? "/" : String(path[..<slash])) else { return nil }
        self.folder = folder
    }

    /// The bytes of the picture `address` names, or nil when it is not one this file may show
    /// or it cannot be read.
    mutating func bytes(_ address: String) -> [UInt8]? {
        guard count < Self.maximumCount, let relative = Self.relativePath(address) else { return nil }
        let joined = folder == "/" ? "/" + relative : folder + "/" + relative
        guard let real = Self.resolved(joined), real.hasPrefix(folder == "/" ? "/" : folder + "/") else { return nil }
        count += 1
        guard let file = try? InputFile(path: DocumentPath(real), maximumSize: Self.maximumBytes),
              let bytes = try? file.read(upTo: Int(Self.maximumBytes)) else { return nil }
        return bytes
    }

    /// The path an image address names relative to the file, decoded (`%20` is a space), or nil
    /// when the address is not such a path.
    static func relativePath(_ address: String) -> String? {
        var path = Substring(address)
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = path[..<cut] }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.contains("\\") else { return nil }
        // A scheme ("http:", "file:", "data:", "C:") is an address, not a path.
        if let colon = path.firstIndex(of: ":"), !path[..<colon].contains("/") { return nil }
        guard let decoded = PercentEncoding.decodedString(path), !decoded.contains("\0") else { return nil }
        let parts = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty, !parts.contains("..") else { return nil }
        return parts.filter { $0 != "." }.joined(separator: "/")
    }

    /// `path` with every link resolved, or nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
