internal import CGIO

/// The arguments of a D-Bus method call, read by position. The introspection data registered
/// with the object makes GDBus check their types before the handler runs; a missing or
/// differently typed argument reads as empty or zero.
package struct DBusArguments: Sendable {
    package let values: [DBusValue?]

    package init(_ values: [DBusValue?]) { self.values = values }

    /// Copies the children of a tuple GVariant.
    init(tuple: OpaquePointer) {
        var values: [DBusValue?] = []
        let count = Int(g_variant_n_children(tuple))
        for index in 0..<count {
            guard let child = g_variant_get_child_value(tuple, gsize(index)) else { values.append(nil); continue }
            values.append(DBusValue(variant: child))
            g_variant_unref(child)
        }
        self.values = values
    }

    private func value(_ index: Int) -> DBusValue? { index < values.count ? values[index] : nil }

    package func strings(_ index: Int) -> [String] {
        if case .strings(let value)? = value(index) { return value }
        return []
    }

    /// A string or an object path.
    package func string(_ index: Int) -> String {
        switch value(index) {
        case .string(let value)?, .objectPath(let value)?: return value
        default: return ""
        }
    }

    /// The value at `index`, whatever its shape (nil when missing or of a shape not read).
    package subscript(_ index: Int) -> DBusValue? { value(index) }

    package func boolean(_ index: Int) -> Bool {
        if case .boolean(let value)? = value(index) { return value }
        return false
    }

    package func uint32(_ index: Int) -> UInt32 {
        if case .uint32(let value)? = value(index) { return value }
        return 0
    }
}
