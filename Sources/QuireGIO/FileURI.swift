internal import CGIO

/// Local paths as GLib canonicalises and encodes them, so that thumbnail cache names (MD5 of
/// the URI) match what other GLib programs compute. Paths are raw bytes.
package enum FileURI {
    /// `path` made absolute against `directory` (default: the working directory), with `.` and
    /// `..` resolved lexically and symlinks kept (`g_canonicalize_filename`).
    package static func canonicalPath(_ path: [UInt8], relativeTo directory: [UInt8]? = nil) -> [UInt8]? {
        guard !path.contains(0), !(directory?.contains(0) ?? false) else { return nil }
        return (path + [0]).withUnsafeBufferPointer { pathBuffer in
            pathBuffer.withMemoryRebound(to: CChar.self) { cPath -> [UInt8]? in
                let base: UnsafeMutablePointer<gchar>? = directory.flatMap { dir in
                    (dir + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { g_strdup($0.baseAddress) } }
                }
                defer { g_free(base) }
                guard let result = g_canonicalize_filename(cPath.baseAddress, base) else { return nil }
                defer { g_free(result) }
                return copyBytes(result)
            }
        }
    }

    /// The `file://` URI of an absolute path (`g_filename_to_uri`).
    package static func uri(forAbsolutePath path: [UInt8]) throws(GIOError) -> String {
        guard !path.contains(0) else { throw GIOError("the path contains a NUL byte") }
        var gerror: UnsafeMutablePointer<GError>?
        let uri: String? = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cPath in
                guard let raw = g_filename_to_uri(cPath.baseAddress, nil, &gerror) else { return nil }
                defer { g_free(raw) }
                return String(cString: raw)
            }
        }
        guard let uri else { throw GIOError("cannot make a URI for it", taking: gerror) }
        return uri
    }

    /// The local path a `file://` URI names (`g_file_new_for_uri`, `g_file_get_path`: escapes
    /// decoded, `.`/`..` resolved), or nil when the URI is not a `file` URI or has no local path.
    /// The D-Bus previewer's `ShowFile(uri, …)` goes through this with whatever a caller sends.
    package static func localPath(ofURI uri: String) -> [UInt8]? {
        guard let file = g_file_new_for_uri(uri) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard g_file_has_uri_scheme(file, "file") != 0, let raw = g_file_get_path(file) else { return nil }
        defer { g_free(raw) }
        return copyBytes(raw)
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
