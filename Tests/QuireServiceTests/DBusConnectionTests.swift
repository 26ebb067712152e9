#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireGIO
import QuireSystem
import QuireTestSupport
import Synchronization
import Testing

/// QuireGIO's D-Bus connection serving an object on a private bus, called with `gdbus` as
/// another program would: methods, read-only properties, PropertiesChanged, a method that also
/// takes a newer caller's extra argument, and owning a name.
@Suite("D-Bus connection (QuireGIO)", .serialized)
final class DBusConnectionTests {
    static let name = "org.quire.ConnectionTest"
    static let path = "/org/quire/ConnectionTest"
    static let interface = "org.quire.ConnectionTest1"
    static let introspection = """
        <node>
          <interface name="org.quire.ConnectionTest1">
            <method name="Show">
              <arg type="s" direction="in" name="Uri"/>
              <arg type="s" direction="in" name="Handle"/>
              <arg type="b" direction="in" name="Toggle"/>
            </method>
            <property name="Visible" type="b" access="read"/>
            <property name="Label" type="s" access="read"/>
            <property name="Missing" type="s" access="read"/>
          </interface>
        </node>
        """

    let bus: PrivateSessionBus

    /// What the callbacks saw.
    final class Record: Sendable {
        /// Method calls: method and arguments.
        let calls = Mutex<[(String, [DBusValue?])]>([])
        let acquired = Atomic<Int>(0)
        let lost = Atomic<Int>(0)
    }

    init() throws {
        bus = try PrivateSessionBus()
    }

    func call(_ method: String, _ arguments: [String] = []) -> ProcessRunner.Result {
        bus.call(Self.name, Self.path, method, arguments)
    }

    static func wait(timeout: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(20_000)
        }
        return true
    }

    @Test func servesMethodsPropertiesExtraArgumentsAndItsName() throws {
        let connection = try DBusConnection(address: bus.address)
        let record = Record()
        try connection.register(
            introspection: Self.introspection, objects: [(Self.path, Self.interface)],
            properties: { _, property in
                switch property {
                case "Visible": .boolean(true)
                case "Label": .string("a label")
                default: nil
                }
            },
            handler: { _, method, arguments, invocation in
                record.calls.withLock { $0.append((method, arguments.values)) }
                invocation.reply()
            })
        connection.acceptExtraArguments(path: Self.path, interface: Self.interface, method: "Show", declared: "ssb")
        connection.ownName(Self.name, acquired: { record.acquired.add(1, ordering: .relaxed) },
                           lost: { record.lost.add(1, ordering: .relaxed) })
        let loop = GLibMainLoop()
        let stop = Atomic<Bool>(false)
        loop.quit(every: 20) { stop.load(ordering: .relaxed) }
        let thread = JoinableThread(stackSize: 1 << 20) { loop.run() }
        defer {
            stop.store(true, ordering: .relaxed)
            thread.join()
        }
        #expect(Self.wait { record.acquired.load(ordering: .relaxed) == 1 }, "the name is acquired")

        // The declared form, and a newer caller's with one more argument.
        #expect(call("\(Self.interface).Show", ["file:///a", "x11:1", "true"]).status == 0)
        let four = call("\(Self.interface).Show", ["file:///b", "", "false", "token-1"])
        #expect(four.status == 0, "\(four.standardError)")
        // Other signatures are still refused by GDBus (sent from python: gdbus call types the
        // arguments by the introspection data).
        let script = """
            import sys
            from gi.repository import Gio, GLib
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            bus = Gio.DBusConnection.new_for_address_sync(sys.argv[1], flags, None, None)
            for signature, values in [("(ssi)", ("file:///c", "", 7)), ("(ss)", ("file:///d", ""))]:
                try:
                    bus.call_sync(sys.argv[2], sys.argv[3], sys.argv[4], "Show", GLib.Variant(signature, values), None, 0, -1, None)
                    print(signature, "accepted")
                except GLib.Error as error:
                    print(signature, "refused:", error.message)
            """
        let wrong = ProcessRunner.run(["/usr/bin/python3", "-c", script, bus.address, Self.name, Self.path, Self.interface])
        #expect(wrong.standardOutputText.contains("(ssi) refused: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs"),
                "\(wrong.standardOutputText) \(wrong.standardError)")
        #expect(wrong.standardOutputText.contains("(ss) refused: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs"),
                "\(wrong.standardOutputText) \(wrong.standardError)")
        let seen = record.calls.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen.first?.0 == "Show" && seen.first?.1 == [.string("file:///a"), .string("x11:1"), .boolean(true)])
        #expect(seen.last?.1 == [.string("file:///b"), .string(""), .boolean(false), .string("token-1")])

        // Properties, read by Get and GetAll; one the reader does not have is an error.
        #expect(call("org.freedesktop.DBus.Properties.Get", [Self.interface, "Visible"]).standardOutputText.contains("(<true>,)"))
        let all = call("org.freedesktop.DBus.Properties.GetAll", [Self.interface])
        #expect(all.standardOutputText.contains("'Label': <'a label'>"), "\(all.standardOutputText) \(all.standardError)")
        let missing = call("org.freedesktop.DBus.Properties.Get", [Self.interface, "Missing"])
        #expect(missing.status != 0 && missing.standardError.contains("no property Missing"), "\(missing.standardError)")

        // PropertiesChanged, in the order given; the monitor listens once it names the owner.
        let monitor = try BackgroundProcess(["/usr/bin/gdbus", "monitor", "--session", "--dest", Self.name],
                                            environment: bus.environment(), directory: bus.directory.path)
        defer { monitor.stop() }
        #expect(Self.wait { monitor.output.contains("is owned by") }, "the monitor subscribed: \(monitor.output)")
        connection.emitPropertiesChanged(path: Self.path, interface: Self.interface,
                                         [("Visible", .boolean(false)), ("Label", .string("b"))])
        connection.emitSignal(path: Self.path, interface: Self.interface, name: "Moved", [.uint32(5)])
        #expect(Self.wait { monitor.output.contains("PropertiesChanged ('\(Self.interface)', {'Visible': <false>, 'Label': <'b'>}, @as [])") },
                "\(monitor.output)")
        #expect(Self.wait { monitor.output.contains("\(Self.interface).Moved (uint32 5,)") }, "\(monitor.output)")

        // Another connection does not get the name (no queueing): its `lost` runs, not `acquired`.
        let other = try DBusConnection(address: bus.address)
        let otherRecord = Record()
        other.ownName(Self.name, acquired: { otherRecord.acquired.add(1, ordering: .relaxed) },
                      lost: { otherRecord.lost.add(1, ordering: .relaxed) })
        #expect(Self.wait { otherRecord.lost.load(ordering: .relaxed) == 1 }, "the other connection is told")
        #expect(otherRecord.acquired.load(ordering: .relaxed) == 0)
        #expect(try other.requestName(Self.name) == false)
        #expect(record.lost.load(ordering: .relaxed) == 0 && record.acquired.load(ordering: .relaxed) == 1, "the first keeps it")
    }
}
