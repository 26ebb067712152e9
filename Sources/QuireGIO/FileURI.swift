internal import CGIO

/// Local paths and their `file://` URIs, converted by GLib (`g_filename_to_uri`,
/// `g_filename_from_uri`) — the conversion GIO, file managers and GNOME's thumbnail factory use,
/// so that a thumbnail's cache name (the MD5 of its URI) and `Thumb::URI` are the ones every
/// other program computes for the same file. Every path ↔ URI conversion in Quire goes through
/// here. Paths are raw bytes (any encoding; only NUL is impossible).
package enum FileURI {
    /// `path` made absolute against `directory` (default: the working directory), with `.` and
    /// `..` resolved lexically, repeated slashes folded and symlinks kept
    /// (`g_canonicalize_filename`, as `GFile` canonicalises a local path).
    package static func canonicalPath(_ path: [UInt8], relativeTo directory: [UInt8]? = nil) -> [UInt8]? {
        guard !path.contains(0), !(directory?.contains(0) ?? false) else { return nil }
        return withCString(path) { cPath -> [UInt8]? in
            let canonical: UnsafeMutablePointer<gchar>?
            if let directory {
                canonical = withCString(directory) { g_canonicalize_filename(cPath, $0) }
            } else {
                canonical = g_canonicalize_filename(cPath, nil)
            }
            guard let canonical else { return nil }
            defer { g_free(canonical) }
            return copyBytes(canonical)
        }
    }

    /// The canonical `file://` URI of `path`: made absolute against `directory` (default: the
    /// working directory) and canonicalised as ``canonicalPath(_:relativeTo:)`` does, then
    /// encoded by `g_filename_to_uri` — what `g_file_get_uri` gives a file manager for the
    /// same file. Nil only for a path with a NUL byte.
    package static func uri(forPath path: [UInt8], relativeTo directory: [UInt8]? = nil) -> String? {
        guard let absolute = canonicalPath(path, relativeTo: directory) else { return nil }
        return try? uri(forAbsolutePath: absolute)
    }

    /// The `file://` URI of an absolute path, encoded as it is (`g_filename_to_uri`).
    package static func uri(forAbsolutePath path: [UInt8]) throws(GIOError) -> String {
        guard !path.contains(0) else { throw GIOError("the path contains a NUL byte") }
        var gerror: UnsafeMutablePointer<GError>?
        let uri: String? = withCString(path) { cPath in
            guard let raw = g_filename_to_uri(cPath, nil, &gerror) else { return nil }
            defer { g_free(raw) }
            return String(cString: raw)
        }
        guard let uri else { throw GIOError("cannot make a URI for it", taking: gerror) }
        return uri
    }

    /// The canonical local path a `file:` URI names (`g_filename_from_uri`: escapes decoded;
    /// then `.` and `..` resolved as ``canonicalPath(_:relativeTo:)`` does), or nil when it is
    /// not a `file:` URI, names another host (only none or `localhost` is this machine), is
    /// malformed (a bad escape, an escaped `/` or NUL). A fragment
    /// (`#…`) is dropped first, as `g_file_new_for_uri` drops it; `?` is part of the path, as
    /// GLib reads it. The command line (`quire thumbnail file:///…`), the thumbnail services'
    /// URIs and the D-Bus previewer's `ShowFile(uri, …)` all go through here.
    package static func localPath(ofURI uri: String) -> [UInt8]? {
        var text = Array(uri.utf8)
        guard !text.contains(0) else { return nil }
        if let hash = text.firstIndex(of: UInt8(ascii: "#")) { text.removeSubrange(hash...) }
        var hostname: UnsafeMutablePointer<gchar>?
        guard let raw = withCString(text, { g_filename_from_uri($0, &hostname, nil) }) else { return nil }
        defer {
            g_free(raw)
            g_free(hostname)
        }
        if let hostname, g_ascii_strcasecmp(hostname, "localhost") != 0 { return nil }
        return canonicalPath(copyBytes(raw))
    }

    private static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<gchar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: gchar.self) { body($0.baseAddress!) }
        }
    }

    private static func copyBytes(_ cString: UnsafeMutablePointer<gchar>) -> [UInt8] {
        var bytes: [UInt8] = []
        var offset = 0
        while cString[offset] != 0 {
            bytes.append(UInt8(bitPattern: cString[offset]))
            offset += 1
        }
        return bytes
    }
}
