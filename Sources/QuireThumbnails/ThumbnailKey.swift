internal import QuireGIO
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// The identity of a file in the thumbnail cache: its canonical absolute path, its canonical
/// `file://` URI (GLib's, through `FileURI`: what file managers and GNOME's thumbnail factory
/// compute) and the MD5 hex digest of that URI, which names the thumbnail.
public struct ThumbnailKey: Sendable, Hashable {
    /// The canonical absolute path (raw bytes; `.` and `..` resolved lexically, symlinks kept).
    public let canonicalPath: DocumentPath
    /// The canonical URI, e.g. `file:///home/me/a%20b.pdf`.
    public let uri: String
    /// MD5 hex digest of ``uri``; the thumbnail file is `<md5>.png`.
    public let md5: String

    /// The key for `path`, made absolute against `directory` (default: the current directory).
    /// Returns nil when the path cannot be expressed as a URI.
    public init?(path: DocumentPath, relativeTo directory: DocumentPath? = nil) {
        guard !path.bytes.isEmpty, let canonical = FileURI.canonicalPath(path.bytes, relativeTo: directory?.bytes) else {
            return nil
        }
        self.init(canonicalBytes: canonical)
    }

    /// The key for the file a `file:` URI names (`file:///…` or `file://localhost/…`), under
    /// its canonical URI (which may be spelled differently from `uri`). Returns nil for any
    /// other URI.
    public init?(uri: String) {
        guard let path = FileURI.localPath(ofURI: uri), !path.isEmpty else { return nil }
        self.init(canonicalBytes: path)
    }

    /// The key for an already canonical absolute path.
    init?(canonicalBytes: [UInt8]) {
        guard let uri = try? FileURI.uri(forAbsolutePath: canonicalBytes) else { return nil }
        self.canonicalPath = DocumentPath(bytes: canonicalBytes)
        self.uri = uri
        self.md5 = Self.md5Hex(Array(uri.utf8))
    }

    /// MD5 hex digest of `bytes` (GLib's checksum).
    static func md5Hex(_ bytes: [UInt8]) -> String {
        Checksum.md5Hex(bytes)
    }

    /// The thumbnail file name, `<md5>.png`.
    public var fileName: String { md5 + ".png" }
}
