#if canImport(Glibc)
import Glibc
#endif
import CGtk

/// Swift strings as the NULL-terminated `const char **` GTK takes (string lists, drop-downs):
/// copied for the call and freed after it.
enum GtkStrings {
    static func with<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
        let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { for pointer in pointers { free(UnsafeMutableRawPointer(mutating: pointer)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    /// A new GtkStringList of `strings` (the caller owns the reference).
    static func list(_ strings: [String]) -> OpaquePointer {
        with(strings) { gtk_string_list_new($0) }!
    }
}
