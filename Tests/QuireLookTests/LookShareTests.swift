import Foundation
import QuireTestSupport
import Testing

/// The window's Share menu, driven through AT-SPI under Xvfb: Email… reaches a stand-in desktop
/// portal on the test bed's session bus (it keeps the bytes it reads from the attachment
/// descriptor), Send to Device a stand-in KDE Connect daemon, Copy Path the clipboard; a file
/// that vanished or a device that went away between the menu and the click is said and nothing
/// is sent; the header's file icon is dragged with xdotool onto a real GTK 4 drop target.
@Suite("quire look share (Xvfb)")
final class LookShareTests {
    static let support = Samples.repositoryRoot.appendingPathComponent("Tests/Support").path

    static func label(_ tree: [WindowTestBed.Accessible], _ text: String) -> Bool {
        tree.contains { $0.role == "label" && $0.name == text }
    }

    /// Starts a helper script in the bed's session and waits for its RECORD.ready.
    func helper(_ harness: LookHarness, _ script: String, _ arguments: [String], record: String) throws -> BackgroundProcess {
        let process = try BackgroundProcess(["/usr/bin/python3", "\(Self.support)/\(script)"] + arguments,
                                            environment: harness.bed.environment(), directory: harness.directory.path)
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: record + ".ready") && Date() < deadline { usleep(50_000) }
        return process
    }

    /// Opens the Share menu and waits for its items.
    func openShareMenu(_ harness: LookHarness) -> [WindowTestBed.Accessible] {
        #expect(harness.bed.press("Share"), "the Share button is there")
        return harness.bed.waitForAccessible { $0.contains { $0.role == "menu item" && $0.name == "Copy Path" && ($0.extents?.width ?? 0) > 0 } }
    }

    func portalCalls(_ record: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func theShareMenuMailsSendsCopiesThePathAndTheIconDragsTheFileOut() throws {
        let harness = try LookHarness("quire-look-share")
        let bed = harness.bed
        let portalRecord = harness.directory.file("portal.jsonl")
        let portal = try helper(harness, "email-portal-stand-in.py", [portalRecord], record: portalRecord)
        defer { portal.stop() }
        let devices = harness.directory.file("devices.json")
        let reachable = #"[{"id": "a1b2", "name": "Pixel 7", "reachable": true, "paired": true}]"#
        try reachable.write(toFile: devices, atomically: true, encoding: .utf8)
        let sentRecord = harness.directory.file("sent.tsv")
        let daemon = try helper(harness, "kdeconnect-stand-in.py", [devices, sentRecord], record: sentRecord)
        defer { daemon.stop() }

        let file = harness.directory.file("report one.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: file)
        let viewer = try harness.look([file])
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^report one\\.pdf$")
        #expect(window != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Share" } }
        #expect(tree.contains { $0.role == "push button" && $0.name == "Share" }, "a Share button in the header bar")
        let closed = try harness.screenshot("share-closed", window: window) { $0.redPixels > 2000 }

        // The menu: Email… (a portal answers), Send to Device (a reachable paired device),
        // Copy, Copy Path, Open with.
        tree = openShareMenu(harness)
        for item in ["Email…", "Send to Device", "Copy", "Copy Path", "Open with Document Viewer"] {
            #expect(tree.contains { $0.role == "menu item" && $0.name == item && ($0.extents?.width ?? 0) > 0 },
                    "\(item) is in the menu: \(tree.filter { $0.role == "menu item" })")
        }
        let open = try harness.screenshot("share-menu", window: window) { $0.differingPixels(from: closed) > 5000 }
        #expect(open.differingPixels(from: closed) > 5000, "the menu is drawn over the page")
        try open.keep(at: "QUIRE_SHARE_SCREENSHOT")

        // Email…: the portal gets the file as a descriptor; its bytes are the file's.
        #expect(bed.press("Email…"))
        tree = bed.waitForAccessible { Self.label($0, "Mail started with report one.pdf attached") }
        #expect(Self.label(tree, "Mail started with report one.pdf attached"), "\(tree.filter { $0.role == "label" })")
        var calls = portalCalls(portalRecord)
        #expect(calls.count == 1 && calls.first?["subject"] as? String == "report one.pdf", "\(calls)")
        let attached = (calls.first?["attachments"] as? [String]) ?? []
        #expect(attached.count == 1 && FileManager.default.contents(atPath: attached[0]) == FileManager.default.contents(atPath: file),
                "the descriptor's bytes are the file's")

        // Send to Device → Pixel 7: KDE Connect's share plugin gets the file's URI.
        _ = openShareMenu(harness)
        #expect(bed.press("Send to Device"))
        _ = bed.waitForAccessible { $0.contains { $0.role == "menu item" && $0.name == "Pixel 7" && ($0.extents?.width ?? 0) > 0 } }
        #expect(bed.press("Pixel 7"))
        tree = bed.waitForAccessible { Self.label($0, "Sent report one.pdf to Pixel 7") }
        #expect(Self.label(tree, "Sent report one.pdf to Pixel 7"), "\(tree.filter { $0.role == "label" })")
        let uri = "file://" + file.replacingOccurrences(of: " ", with: "%20")
        let sent = (try? String(contentsOfFile: sentRecord, encoding: .utf8)) ?? ""
        #expect(sent == "a1b2\t\(uri)\n", "\(sent)")

        // The device goes away between the menu and the click: said, nothing sent.
        _ = openShareMenu(harness)
        #expect(bed.press("Send to Device"))
        _ = bed.waitForAccessible { $0.contains { $0.role == "menu item" && $0.name == "Pixel 7" && ($0.extents?.width ?? 0) > 0 } }
        try reachable.replacingOccurrences(of: "\"reachable\": true", with: "\"reachable\": false")
            .write(toFile: devices, atomically: true, encoding: .utf8)
        #expect(bed.press("Pixel 7"))
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.hasPrefix("Not sent") } }
        #expect(Self.label(tree, "Not sent: Pixel 7 is no longer reachable; nothing was sent"), "\(tree.filter { $0.role == "label" })")
        #expect((try? String(contentsOfFile: sentRecord, encoding: .utf8)) == sent, "nothing more was sent")

        // The file vanishes after it was opened: Email… says so and the portal is not asked.
        let away = harness.directory.file("moved away.pdf")
        try FileManager.default.moveItem(atPath: file, toPath: away)
        _ = openShareMenu(harness)
        #expect(bed.press("Email…"))
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("no longer there") } }
        #expect(tree.contains { $0.role == "label" && $0.name.hasPrefix("Not sent: ") && $0.name.hasSuffix("report one.pdf: the file is no longer there; nothing was sent") },
                "\(tree.filter { $0.role == "label" })")
        calls = portalCalls(portalRecord)
        #expect(calls.count == 1, "the portal was not asked again")
        try FileManager.default.moveItem(atPath: away, toPath: file)

        // Copy Path: the path as text.
        let copied = harness.copied {
            _ = openShareMenu(harness)
            bed.press("Copy Path")
        }
        #expect(copied == file, "\(copied.debugDescription)")

        // The header's file icon dragged onto a GTK 4 drop target (another program) drops the file.
        let dropRecord = harness.directory.file("dropped.txt")
        let target = try helper(harness, "drop-target.py", [dropRecord], record: dropRecord)
        defer { target.stop() }
        let dropWindow = try #require(bed.waitForWindow(named: "^Quire drop target$"))
        bed.run(["/usr/bin/xdotool", "windowmove", dropWindow, "950", "300"])
        tree = bed.accessibilityTree()
        let icon = try #require(tree.first { $0.role == "image" && $0.name == "File type" }?.extents)
        let frame = try bed.geometry(of: try #require(window))
        let (x, y) = (frame.x + icon.x + icon.width / 2, frame.y + max(0, icon.y) + icon.height / 2)
        bed.run(["/usr/bin/xdotool", "mousemove", "\(x)", "\(y)", "sleep", "0.3", "mousedown", "1", "sleep", "0.2",
                 "mousemove", "\(x + 4)", "\(y + 4)", "sleep", "0.1", "mousemove", "\(x + 20)", "\(y + 20)", "sleep", "0.2",
                 "mousemove", "600", "400", "sleep", "0.2", "mousemove", "1090", "440", "sleep", "0.3",
                 "mousemove", "1100", "450", "sleep", "0.5", "mouseup", "1"])
        let deadline = Date().addingTimeInterval(10)
        var dropped = ""
        while dropped.isEmpty && Date() < deadline {
            dropped = (try? String(contentsOfFile: dropRecord, encoding: .utf8)) ?? ""
            usleep(100_000)
        }
        #expect(dropped == uri + "\n", "the drop target received the file: \(dropped.debugDescription)")
        #expect((try? bed.geometry(of: try #require(window)))?.x == frame.x, "the drag did not move the window")

        // Alt+drag on the page drops the file too (without Alt a drag there selects text).
        let (px, py) = (frame.x + 300, frame.y + 400)
        bed.run(["/usr/bin/xdotool", "mousemove", "\(px)", "\(py)", "sleep", "0.3", "keydown", "alt", "sleep", "0.1",
                 "mousedown", "1", "sleep", "0.2", "mousemove", "\(px + 4)", "\(py + 4)", "sleep", "0.1",
                 "mousemove", "\(px + 20)", "\(py + 20)", "sleep", "0.2", "mousemove", "1090", "440", "sleep", "0.3",
                 "mousemove", "1100", "450", "sleep", "0.5", "mouseup", "1", "keyup", "alt"])
        let altDeadline = Date().addingTimeInterval(10)
        while dropped == uri + "\n" && Date() < altDeadline {
            dropped = (try? String(contentsOfFile: dropRecord, encoding: .utf8)) ?? ""
            usleep(100_000)
        }
        #expect(dropped == uri + "\n" + uri + "\n", "Alt+drag from the page dropped the file: \(dropped.debugDescription)")

        bed.run(["/usr/bin/xdotool", "windowfocus", try #require(window)])
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// In the index sheet, the tiles chosen (a click, then Ctrl+click) are mailed together.
    @Test func theIndexSheetSharesTheSelectedFilesTogether() throws {
        let harness = try LookHarness("quire-look-share-index")
        let bed = harness.bed
        let portalRecord = harness.directory.file("portal.jsonl")
        let portal = try helper(harness, "email-portal-stand-in.py", [portalRecord], record: portalRecord)
        defer { portal.stop() }
        let first = harness.directory.file("first.pdf"), middle = harness.directory.file("middle.txt"), last = harness.directory.file("last.txt")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: first)
        try "the middle one\n".write(toFile: middle, atomically: true, encoding: .utf8)
        try "the last one\n".write(toFile: last, atomically: true, encoding: .utf8)
        let viewer = try harness.look([first, middle, last])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^first\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        bed.key("ctrl+Up")
        let tree = bed.waitForAccessible { tree in ["first.pdf,", "middle.txt,", "last.txt,"].allSatisfy { name in tree.contains { $0.name.hasPrefix(name) } } }
        let tile = try #require(tree.first { $0.name.hasPrefix("last.txt,") && ($0.extents?.width ?? 0) > 0 }?.extents, "\(tree.filter { $0.name.contains(",") })")
        let frame = try bed.geometry(of: window)
        bed.run(["/usr/bin/xdotool", "mousemove", "\(frame.x + tile.x + tile.width / 2)", "\(frame.y + tile.y + tile.height / 2)",
                 "keydown", "ctrl", "click", "1", "keyup", "ctrl"])
        _ = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("last.txt,") && $0.states.contains("selected") } }
        _ = openShareMenu(harness)
        #expect(bed.press("Email…"))
        let after = bed.waitForAccessible { Self.label($0, "Mail started with 2 files attached") }
        #expect(Self.label(after, "Mail started with 2 files attached"), "\(after.filter { $0.role == "label" })")
        let call = try #require(portalCalls(portalRecord).first)
        #expect(call["subject"] as? String == "first.pdf, last.txt", "\(call)")
        let attached = (call["attachments"] as? [String]) ?? []
        #expect(attached.count == 2)
        if attached.count == 2 {
            #expect(FileManager.default.contents(atPath: attached[0]) == FileManager.default.contents(atPath: first))
            #expect(FileManager.default.contents(atPath: attached[1]) == FileManager.default.contents(atPath: last))
        }
        bed.key("Escape")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// The user cancels in the portal's dialog: the window says so and asks nothing again; a
    /// portal that answers with an error is said the same way.
    @Test func aCancelledOrRefusedMailIsSaidAndNotRetried() throws {
        let harness = try LookHarness("quire-look-share-cancel")
        let bed = harness.bed
        let record = harness.directory.file("portal.jsonl")
        let portal = try helper(harness, "email-portal-stand-in.py", [record, "cancel"], record: record)
        let file = harness.directory.file("letter.txt")
        try "Dear reader\n".write(toFile: file, atomically: true, encoding: .utf8)
        let viewer = try harness.look([file])
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^letter\\.txt$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Share" } }
        _ = openShareMenu(harness)
        #expect(bed.press("Email…"))
        var tree = bed.waitForAccessible { Self.label($0, "Not sent: the mail was cancelled") }
        #expect(Self.label(tree, "Not sent: the mail was cancelled"), "\(tree.filter { $0.role == "label" })")
        usleep(1_000_000)
        #expect(portalCalls(record).count == 1, "asked once, not again behind the user's back")
        portal.stop()

        // The portal goes and another answers with an error (the window looked its route up once).
        let failing = harness.directory.file("failing.jsonl")
        let refusing = try helper(harness, "email-portal-stand-in.py", [failing, "error"], record: failing)
        defer { refusing.stop() }
        _ = openShareMenu(harness)
        #expect(bed.press("Email…"))
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.hasPrefix("Not sent: the mail portal refused") } }
        #expect(Self.label(tree, "Not sent: the mail portal refused: no mail program is set up"), "\(tree.filter { $0.role == "label" })")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func withNeitherAPortalNorXdgEmailEmailIsHiddenWithItsReason() throws {
        let harness = try LookHarness("quire-look-share-none")
        let file = harness.directory.file("notes.txt")
        try "a note\n".write(toFile: file, atomically: true, encoding: .utf8)
        let viewer = try harness.look([file], ProcessInfo.processInfo.environment, ["PATH": "/usr/bin:/bin"])
        defer { viewer.stop() }
        #expect(harness.bed.waitForWindow(named: "^notes\\.txt$") != nil, "\(viewer.errorOutput)")
        _ = harness.bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Share" } }
        let tree = openShareMenu(harness)
        #expect(!tree.contains { $0.role == "menu item" && $0.name == "Email…" }, "no way to mail: no Email… item")
        #expect(!tree.contains { $0.role == "menu item" && $0.name == "Send to Device" }, "no device service: no Send to Device")
        #expect(tree.contains { $0.role == "menu item" && $0.name == "Copy Path" })
        let share = tree.first { $0.role == "push button" && $0.name == "Share" && !$0.detail.isEmpty && $0.detail != "Share" }
        #expect(share?.detail == "Email is not available: no desktop portal on the session bus and xdg-email is not installed "
                + "(install xdg-desktop-portal with a backend, or xdg-utils)", "the reason is on the button: \(String(describing: share))")
        harness.bed.key("Escape")
        harness.bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
