internal import CGIO

/// One incoming method call, to be answered exactly once, from any thread (GDBus allows it).
// Shared across threads unchecked because: it holds a GDBusMethodInvocation pointer, which GDBus lets any
// thread answer (the return_* calls are thread-safe); it is answered exactly once.
package struct DBusInvocation: @unchecked Sendable {
    let pointer: OpaquePointer  // GDBusMethodInvocation*, owned until answered

    /// Answers with `values` as the reply tuple.
    package func reply(_ values: [DBusValue] = []) {
        g_dbus_method_invocation_return_value(pointer, DBusValue.tuple(values))
    }

    /// Answers with the D-Bus error `name` and `message`.
    package func fail(_ name: String, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(pointer, name, message)
    }
}
