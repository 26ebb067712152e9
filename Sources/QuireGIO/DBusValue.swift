internal import CGIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The D-Bus value shapes Quire's services and clients send and receive.
package indirect enum DBusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case uint32(UInt32)
    case int32(Int32)
    case strings([String])
    /// `a{sv}` when sent (each value in a variant); read from any dictionary with string or
    /// object-path keys (`a{ss}`, `a{sv}`, `a{oa{sa{sv}}}`…), variants unwrapped.
    case dictionary([String: DBusValue])
    /// A structure (`(sb)`…).
    case tuple([DBusValue])
    /// `av`: each value in a variant.
    case variants([DBusValue])
    /// `ah`: indexes into the descriptors sent with the message
    /// (``DBusConnection/call(destination:path:interface:method:_:fileDescriptors:timeout:)``).
    case handles([Int32])

    /// A new floating GVariant (consumed by the GDBus call it is passed to).
    var variant: OpaquePointer? {
        switch self {
        case .string(let value): return g_variant_new_string(value)
        case .objectPath(let value): return g_variant_new_object_path(value)
        case .boolean(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .int32(let value): return g_variant_new_int32(value)
        case .strings(let values):
            let copies = values.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            var pointers: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) }
            return pointers.withUnsafeMutableBufferPointer { g_variant_new_strv($0.baseAddress, gssize($0.count)) }
        case .dictionary(let entries):
            let entryType = g_variant_type_new("{sv}")
            defer { g_variant_type_free(entryType) }
            var items: [OpaquePointer?] = entries.sorted { $0.key < $1.key }.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.variant))
            }
            return items.withUnsafeMutableBufferPointer { g_variant_new_array(entryType, $0.baseAddress, gsize($0.count)) }
        case .tuple(let values):
            return Self.tuple(values)
        case .variants(let values):
            let type = g_variant_type_new("v")
            defer { g_variant_type_free(type) }
            var items: [OpaquePointer?] = values.map { g_variant_new_variant($0.variant) }
            return items.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        case .handles(let indexes):
            let type = g_variant_type_new("h")
            defer { g_variant_type_free(type) }
            var items: [OpaquePointer?] = indexes.map { g_variant_new_handle($0) }
            return items.withUnsafeMutableBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        }
    }

    /// A floating tuple GVariant of `values`.
    static func tuple(_ values: [DBusValue]) -> OpaquePointer? {
        var items = values.map(\.variant)
        return items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }

    /// The value of a GVariant of one of the supported types (a variant is unwrapped); nil for
    /// any other type.
    init?(variant: OpaquePointer) {
        guard let type = g_variant_get_type_string(variant).map({ String(cString: $0) }) else { return nil }
        switch type {
        case "s": self = .string(g_variant_get_string(variant, nil).map { String(cString: $0) } ?? "")
        case "o": self = .objectPath(g_variant_get_string(variant, nil).map { String(cString: $0) } ?? "")
        case "b": self = .boolean(g_variant_get_boolean(variant) != 0)
        case "u": self = .uint32(g_variant_get_uint32(variant))
        case "i": self = .int32(g_variant_get_int32(variant))
        case "as":
            var length: gsize = 0
            guard let array = g_variant_get_strv(variant, &length) else { self = .strings([]); return }
            defer { g_free(UnsafeMutableRawPointer(mutating: array)) }
            self = .strings((0..<Int(length)).compactMap { array[$0].map { String(cString: $0) } })
        case "v":
            guard let inner = g_variant_get_variant(variant) else { return nil }
            defer { g_variant_unref(inner) }
            guard let value = DBusValue(variant: inner) else { return nil }
            self = value
        case _ where type.hasPrefix("a{s") || type.hasPrefix("a{o"):
            var entries: [String: DBusValue] = [:]
            for index in 0..<Int(g_variant_n_children(variant)) {
                guard let entry = g_variant_get_child_value(variant, gsize(index)) else { continue }
                defer { g_variant_unref(entry) }
                guard let key = g_variant_get_child_value(entry, 0), let value = g_variant_get_child_value(entry, 1) else { continue }
                defer { g_variant_unref(key); g_variant_unref(value) }
                let name = g_variant_get_string(key, nil).map { String(cString: $0) } ?? ""
                if let decoded = DBusValue(variant: value) { entries[name] = decoded }
            }
            self = .dictionary(entries)
        case _ where type.hasPrefix("("):
            self = .tuple(DBusArguments(tuple: variant).values.map { $0 ?? .tuple([]) })
        case "av":
            var values: [DBusValue] = []
            for index in 0..<Int(g_variant_n_children(variant)) {
                guard let child = g_variant_get_child_value(variant, gsize(index)) else { continue }
                if let value = DBusValue(variant: child) { values.append(value) }
                g_variant_unref(child)
            }
            self = .variants(values)
        case "ah":
            var values: [Int32] = []
            for index in 0..<Int(g_variant_n_children(variant)) {
                guard let child = g_variant_get_child_value(variant, gsize(index)) else { continue }
                values.append(g_variant_get_handle(child))
                g_variant_unref(child)
            }
            self = .handles(values)
        default: return nil
        }
    }
}
