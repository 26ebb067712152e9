internal import CGIO
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// The identity of a file in the thumbnail cache: its canonical absolute path, its canonical
/// `file://` URI (percent-encoded exactly as GLib does) and the MD5 hex digest of that URI,
/// which names the thumbnail.
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
        guard !path.bytes.isEmpty else { return nil }
        let canonical: [UInt8]? = path.withCString { cPath in
            let base: UnsafeMutablePointer<gchar>? = directory.flatMap { dir in dir.withCString { g_strdup($0) } }
            defer { g_free(base) }
            guard let result = g_canonicalize_filename(cPath, base) else { return nil }
            defer { g_free(result) }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(result).assumingMemoryBound(to: UInt8.self),
                                             count: strlen(result)))
        }
        guard let canonical else { return nil }
        self.init(canonicalBytes: canonical)
    }

    /// The key for an already canonical absolute path.
    init?(canonicalBytes: [UInt8]) {
        let path = DocumentPath(bytes: canonicalBytes)
        let uri: String? = path.withCString { cPath in
            guard let uri = g_filename_to_uri(cPath, nil, nil) else { return nil }
            defer { g_free(uri) }
            return String(cString: uri)
        }
        guard let uri else { return nil }
        self.canonicalPath = path
        self.uri = uri
        self.md5 = Self.md5Hex(Array(uri.utf8))
    }

    /// MD5 hex digest of `bytes` (GLib's checksum).
    static func md5Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard let digest = g_compute_checksum_for_data(G_CHECKSUM_MD5, buffer.baseAddress, gsize(buffer.count)) else {
                return ""
            }
            defer { g_free(digest) }
            return String(cString: digest)
        }
    }

    /// The thumbnail file name, `<md5>.png`.
    public var fileName: String { md5 + ".png" }
}
