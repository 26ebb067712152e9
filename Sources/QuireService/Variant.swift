internal import CGIO

/// Building and reading the few GVariant shapes the service uses. Values built here are
/// floating references, consumed by the GDBus call they are passed to.
enum Variant {
    static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer? {
        var items = children
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    static func strv(_ strings: [String]) -> OpaquePointer? {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeMutableBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
    }

    static func strings(_ tuple: OpaquePointer, _ index: Int) -> [String] {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return [] }
        defer { g_variant_unref(child) }
        var length: gsize = 0
        guard let array = g_variant_get_strv(child, &length) else { return [] }
        defer { g_free(UnsafeMutableRawPointer(mutating: array)) }
        return (0..<Int(length)).compactMap { array[$0].map { String(cString: $0) } }
    }

    static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return "" }
        defer { g_variant_unref(child) }
        return g_variant_get_string(child, nil).map { String(cString: $0) } ?? ""
    }

    static func uint32(_ tuple: OpaquePointer, _ index: Int) -> UInt32 {
        guard let child = g_variant_get_child_value(tuple, gsize(index)) else { return 0 }
        defer { g_variant_unref(child) }
        return g_variant_get_uint32(child)
    }
}
