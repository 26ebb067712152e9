internal import CGIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The D-Bus value shapes Quire's services send and receive.
package enum DBusValue: Sendable, Equatable {
    case string(String)
    case boolean(Bool)
    case uint32(UInt32)
    case int32(Int32)
    case strings([String])

    /// A new floating GVariant (consumed by the GDBus call it is passed to).
    var variant: OpaquePointer? {
        switch self {
        case .string(let value): return g_variant_new_string(value)
        case .boolean(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .int32(let value): return g_variant_new_int32(value)
        case .strings(let values):
            let copies = values.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            var pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) }
            return pointers.withUnsafeMutableBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
        }
    }

    /// A floating tuple GVariant of `values`.
    static func tuple(_ values: [DBusValue]) -> OpaquePointer? {
        var items = values.map(\.variant)
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The value of a GVariant of one of the supported types; nil for any other type.
    init?(variant: OpaquePointer) {
        guard let type = g_variant_get_type_string(variant).map({ String(cString: $0) }) else { return nil }
        switch type {
        case "s", "o": self = .string(g_variant_get_string(variant, nil).map { String(cString: $0) } ?? "")
        case "b": self = .boolean(g_variant_get_boolean(variant) != 0)
        case "u": self = .uint32(g_variant_get_uint32(variant))
        case "i": self = .int32(g_variant_get_int32(variant))
        case "as":
            var length: gsize = 0
            guard let array = g_variant_get_strv(variant, &length) else { self = .strings([]); return }
            defer { g_free(UnsafeMutableRawPointer(mutating: array)) }
            self = .strings((0..<Int(length)).compactMap { array[$0].map { String(cString: $0) } })
        default: return nil
        }
    }
}
