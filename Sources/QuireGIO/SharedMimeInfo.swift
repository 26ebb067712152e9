internal import CGIO

/// Thin wrapper over GIO's content-type functions (shared-mime-info on Linux), for
/// QuireTypes' `ContentType`.
package enum SharedMimeInfo {
    package struct Guess {
        package let type: String
        package let uncertain: Bool
    }

    /// `g_content_type_guess`: glob match on the name, magic match on the data. Without data
    /// (`nil`, not an empty array) GIO looks at the name alone and reports a guess as
    /// uncertain when no glob or several conflicting globs match — which is how `gio info`
    /// decides whether to read the file at all.
    package static func guess(fileName: [UInt8], data: [UInt8]?) -> Guess {
        var uncertain: gboolean = 0
        let raw: UnsafeMutablePointer<gchar>? = (fileName + [0]).withUnsafeBufferPointer { nameBuffer in
            nameBuffer.baseAddress!.withMemoryRebound(to: gchar.self, capacity: nameBuffer.count) { name in
                let namePointer: UnsafePointer<gchar>? = fileName.isEmpty ? nil : UnsafePointer(name)
                guard let data else {
                    return g_content_type_guess(namePointer, nil, 0, &uncertain)
                }
                // GIO sniffs only when the data pointer is non-NULL, even for 0 bytes.
                var byte: guchar = 0
                return data.isEmpty
                    ? g_content_type_guess(namePointer, &byte, 0, &uncertain)
                    : data.withUnsafeBufferPointer { g_content_type_guess(namePointer, $0.baseAddress, gsize($0.count), &uncertain) }
            }
        }
        return Guess(type: take(raw) ?? "application/octet-stream", uncertain: uncertain != 0)
    }

    package static func description(of type: String) -> String {
        take(g_content_type_get_description(type)) ?? type
    }

    package static func genericIconName(of type: String) -> String {
        take(g_content_type_get_generic_icon_name(type)) ?? "text-x-generic"
    }

    package static func mimeType(of type: String) -> String {
        take(g_content_type_get_mime_type(type)) ?? type
    }

    package static func isA(_ type: String, _ supertype: String) -> Bool {
        g_content_type_is_a(type, supertype) != 0
    }

    package static func isUnknown(_ type: String) -> Bool {
        g_content_type_is_unknown(type) != 0
    }

    /// Copies a GLib-allocated string into Swift and frees it.
    private static func take(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }
}

extension SharedMimeInfo {
    /// Every content type registered in shared-mime-info (`g_content_types_get_registered`).
    package static func registeredTypes() -> [String] {
        guard let list = g_content_types_get_registered() else { return [] }
        defer { g_list_free_full(list, g_free) }
        var result: [String] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data {
                result.append(String(cString: data.assumingMemoryBound(to: CChar.self)))
            }
            node = current.pointee.next
        }
        return result
    }
}
