import Foundation
import QuireTestSupport
import Testing

/// `quire share`: mail through a stand-in desktop portal on a private session bus (it speaks
/// org.freedesktop.portal.Email and keeps the bytes it reads from each attachment descriptor),
/// `xdg-email` replaced by a recorder on PATH where no portal answers, devices through a
/// stand-in KDE Connect daemon; nothing to share with is one line and exit 69.
@Suite("quire share")
final class ShareCommandTests {
    let directory = TemporaryDirectory("quire-share")
    static let support = Samples.repositoryRoot.appendingPathComponent("Tests/Support").path

    /// Runs quire with `bus` as the session bus (nil: none at all) and `path` as PATH.
    func share(_ arguments: [String], bus: PrivateSessionBus?, path: String = "/usr/bin:/bin") -> ProcessRunner.Result {
        var environment = bus?.environment() ?? ProcessInfo.processInfo.environment
        if bus == nil {
            environment["DBUS_SESSION_BUS_ADDRESS"] = nil
            environment["XDG_RUNTIME_DIR"] = directory.path
        }
        environment["PATH"] = path
        return ProcessRunner.run([QuireBinary.path, "share"] + arguments, environment: environment, timeout: 60,
                                 workingDirectory: directory.path)
    }

    /// Starts a stand-in script on `bus` and waits for it to own its name.
    func standIn(_ script: String, _ arguments: [String], record: String, bus: PrivateSessionBus) throws -> BackgroundProcess {
        let process = try BackgroundProcess(["/usr/bin/python3", "\(Self.support)/\(script)"] + arguments,
                                            environment: bus.environment(), directory: directory.path)
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: record + ".ready") && Date() < deadline { usleep(50_000) }
        return process
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func records(_ path: String) -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func emailAttachesTheFilesAsDescriptorsThroughThePortal() throws {
        let bus = try PrivateSessionBus()
        let record = directory.file("portal.jsonl")
        let portal = try standIn("email-portal-stand-in.py", [record], record: record, bus: bus)
        defer { portal.stop() }
        let first = try write("report.pdf", Array(try Data(contentsOf: URL(fileURLWithPath: Samples.path("document.pdf")))))
        // Every byte value, and a name with a line break and a leading dash.
        let second = try write("-rf\nnotes.bin", (0..<4096).map { UInt8($0 % 256) })
        let result = share(["--email", "--to", "someone@example.org", first, second], bus: bus)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText == "Mail started with 2 files attached (the desktop portal).\n", "\(result.standardOutputText)")
        let calls = records(record)
        #expect(calls.count == 1, "one ComposeEmail call: \(calls)")
        let call = try #require(calls.first)
        #expect(call["descriptors"] as? Int == 2, "two descriptors came with the message")
        #expect(call["addresses"] as? [String] == ["someone@example.org"])
        #expect(call["subject"] as? String == "report.pdf, -rf notes.bin", "the files' names, one line: \(call)")
        #expect((call["options"] as? [String])?.contains("handle_token") == true)
        let attached = (call["attachments"] as? [String]) ?? []
        #expect(attached.count == 2)
        if attached.count == 2 {
            #expect(FileManager.default.contents(atPath: attached[0]) == FileManager.default.contents(atPath: first),
                    "the first descriptor's bytes are the PDF's")
            #expect(FileManager.default.contents(atPath: attached[1]) == FileManager.default.contents(atPath: second),
                    "the second descriptor's bytes are the binary file's")
        }

        // One file: the subject is its name unless one is given.
        let single = share(["--email", "--subject", "Quarterly numbers", first], bus: bus)
        #expect(single.status == 0, "\(single.standardError)")
        #expect(single.standardOutputText == "Mail started with report.pdf attached (the desktop portal).\n")
        #expect(records(record).last?["subject"] as? String == "Quarterly numbers")
    }

    @Test func aCancelledOrRefusedMailIsSaidAndNotRetried() throws {
        let bus = try PrivateSessionBus()
        let file = try write("letter.txt", Array("Dear reader\n".utf8))
        let cancelRecord = directory.file("cancel.jsonl")
        let cancelling = try standIn("email-portal-stand-in.py", [cancelRecord, "cancel"], record: cancelRecord, bus: bus)
        let cancelled = share(["--email", file], bus: bus)
        cancelling.stop()
        #expect(cancelled.status == 1, "\(cancelled.standardError)")
        #expect(cancelled.errorLines == ["quire: the mail was cancelled"], "\(cancelled.errorLines)")
        #expect(records(cancelRecord).count == 1, "asked once, not again")

        let bus2 = try PrivateSessionBus()
        let errorRecord = directory.file("error.jsonl")
        let refusing = try standIn("email-portal-stand-in.py", [errorRecord, "error"], record: errorRecord, bus: bus2)
        defer { refusing.stop() }
        let refused = share(["--email", file], bus: bus2)
        #expect(refused.status == 69, "\(refused.standardError)")
        #expect(refused.errorLines == ["quire: the mail portal refused: no mail program is set up"], "the portal's own words: \(refused.errorLines)")
    }

    @Test func withoutAPortalXdgEmailGetsTheFilesAsArguments() throws {
        let bus = try PrivateSessionBus()
        let tools = directory.file("tools")
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        let argvRecord = directory.file("xdg-email.argv")
        // A recorder in xdg-email's place: its arguments, NUL-separated.
        let recorder = "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done > '\(argvRecord)'\n"
        try ExecutableScript.write(recorder, to: tools + "/xdg-email")
        let file = try write("-n\nodd name.txt", Array("text\n".utf8))
        let result = share(["--email", "--to", "someone@example.org", file], bus: bus, path: "\(tools):/usr/bin:/bin")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText.hasSuffix("(xdg-email).\n"), "\(result.standardOutputText)")
        let argv = (FileManager.default.contents(atPath: argvRecord) ?? Data()).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(argv == ["--utf8", "--subject", "-n odd name.txt", "--attach", directory.path + "/-n\nodd name.txt",
                         "someone@example.org"], "\(argv)")

        // xdg-email that finds no mail program (its exit 3): said in one line, 69.
        let failing = directory.file("failing")
        try FileManager.default.createDirectory(atPath: failing, withIntermediateDirectories: true)
        try ExecutableScript.write("#!/bin/sh\necho 'xdg-email: no method available for opening mailto:' >&2\nexit 3\n",
                                   to: failing + "/xdg-email")
        let refused = share(["--email", file], bus: bus, path: "\(failing):/usr/bin:/bin")
        #expect(refused.status == 69, "\(refused.standardError)")
        #expect(refused.errorLines == ["quire: xdg-email failed: no mail program was found (exit 3)"], "\(refused.errorLines)")

        // An address xdg-email would take as an option is refused before anything runs.
        try? FileManager.default.removeItem(atPath: argvRecord)
        let dashed = share(["--email", "--to=-x@example.org", file], bus: bus, path: "\(tools):/usr/bin:/bin")
        #expect(dashed.status == 64 && dashed.errorLines.count == 1, "\(dashed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: argvRecord), "xdg-email did not run")
    }

    @Test func nothingToMailWithIsOneLineAndExit69() throws {
        let bus = try PrivateSessionBus()
        let file = try write("a.txt", Array("a\n".utf8))
        let result = share(["--email", file], bus: bus)
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1, "\(result.errorLines)")
        #expect(result.errorLines.first?.contains("install xdg-desktop-portal") == true && result.errorLines.first?.contains("xdg-utils") == true,
                "names what to install: \(result.errorLines)")
        let noBus = share(["--email", file], bus: nil)
        #expect(noBus.status == 69 && noBus.errorLines.count == 1, "\(noBus.standardError)")
        let noDevices = share(["--devices"], bus: bus)
        #expect(noDevices.status == 69, "\(noDevices.standardError)")
        #expect(noDevices.errorLines == ["quire: no device service runs on the session bus (install KDE Connect or GSConnect and pair a device)"],
                "\(noDevices.errorLines)")
    }

    @Test func aVanishedFileOrTooManyFilesSendNothing() throws {
        let bus = try PrivateSessionBus()
        let record = directory.file("portal.jsonl")
        let portal = try standIn("email-portal-stand-in.py", [record], record: record, bus: bus)
        defer { portal.stop() }
        let present = try write("present.txt", Array("here\n".utf8))
        let missing = share(["--email", present, directory.file("gone.txt")], bus: bus)
        #expect(missing.status == 66, "\(missing.standardError)")
        #expect(missing.errorLines.count == 1 && missing.errorLines[0].contains("gone.txt: the file is no longer there; nothing was sent"),
                "\(missing.errorLines)")
        let folder = share(["--email", directory.path], bus: bus)
        #expect(folder.status == 66 && folder.errorLines.first?.contains("not a regular file") == true, "\(folder.standardError)")
        let many = share(["--email"] + Array(repeating: present, count: 65), bus: bus)
        #expect(many.status == 64, "\(many.standardError)")
        #expect(many.errorLines.first?.contains("at most 64") == true, "\(many.errorLines)")
        #expect(records(record).isEmpty, "the portal was never asked")
    }

    @Test func devicesAreListedAndSentToThroughKDEConnect() throws {
        let bus = try PrivateSessionBus()
        let devices = directory.file("devices.json")
        let all = """
            [{"id": "a1b2", "name": "Pixel 7", "reachable": true, "paired": true},
             {"id": "c3d4", "name": "Tablet", "reachable": false, "paired": true},
             {"id": "e5f6", "name": "Stranger", "reachable": true, "paired": false}]
            """
        try all.write(toFile: devices, atomically: true, encoding: .utf8)
        let record = directory.file("shared.tsv")
        let daemon = try standIn("kdeconnect-stand-in.py", [devices, record], record: record, bus: bus)
        defer { daemon.stop() }

        let list = share(["--devices"], bus: bus)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.standardOutputText == "Pixel 7 (KDE Connect, id a1b2)\n", "only the reachable paired one: \(list.standardOutputText)")
        let json = share(["--devices", "--json"], bus: bus)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: String]]
        #expect(parsed == [["id": "a1b2", "name": "Pixel 7", "service": "kdeconnect"]], "\(json.standardOutputText)")

        let photo = try write("photo one.png", Array("not really a png".utf8))
        let sent = share(["--device", "Pixel 7", photo], bus: bus)
        #expect(sent.status == 0, "\(sent.standardError)")
        #expect(sent.standardOutputText == "Sent photo one.png to Pixel 7 (KDE Connect).\n")
        let shared = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(shared == "a1b2\tfile://\(directory.path)/photo%20one.png\n", "\(shared)")

        // Unreachable, unpaired or gone: said, nothing sent.
        for name in ["Tablet", "Stranger", "Nobody"] {
            let refused = share(["--device", name, photo], bus: bus)
            #expect(refused.status == 69 && refused.errorLines.count == 1, "\(name): \(refused.standardError)")
            #expect(refused.errorLines.first?.contains("no reachable paired device named") == true)
        }
        try all.replacingOccurrences(of: "\"reachable\": true, \"paired\": true", with: "\"reachable\": false, \"paired\": true")
            .write(toFile: devices, atomically: true, encoding: .utf8)
        let gone = share(["--device", "Pixel 7", photo], bus: bus)
        #expect(gone.status == 69, "\(gone.standardError)")
        #expect((try? String(contentsOfFile: record, encoding: .utf8)) == shared, "nothing more was sent")
    }

    @Test func devicesAreListedAndSentToThroughGSConnect() throws {
        let bus = try PrivateSessionBus()
        let devices = directory.file("gsconnect.json")
        try """
            [{"id": "f00d", "name": "Phone", "connected": true, "paired": true},
             {"id": "beef", "name": "Away", "connected": false, "paired": true}]
            """.write(toFile: devices, atomically: true, encoding: .utf8)
        let record = directory.file("gsconnect.tsv")
        let service = try standIn("gsconnect-stand-in.py", [devices, record], record: record, bus: bus)
        defer { service.stop() }
        let json = share(["--devices", "--json"], bus: bus)
        #expect(json.status == 0, "\(json.standardError)")
        let parsed = try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: String]]
        #expect(parsed == [["id": "f00d", "name": "Phone", "service": "gsconnect"]], "\(json.standardOutputText)")
        let first = try write("one.txt", Array("1\n".utf8)), second = try write("two.txt", Array("2\n".utf8))
        let sent = share(["--device", "Phone", first, second], bus: bus)
        #expect(sent.status == 0, "\(sent.standardError)")
        #expect(sent.standardOutputText == "Sent 2 files to Phone (GSConnect).\n", "\(sent.standardOutputText)")
        let shared = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(shared == "f00d\tshareFile\tfile://\(first)\tFalse\nf00d\tshareFile\tfile://\(second)\tFalse\n", "\(shared)")
        let away = share(["--device", "Away", first], bus: bus)
        #expect(away.status == 69, "\(away.standardError)")
    }

    @Test func argumentsAreChecked() throws {
        let bus = try PrivateSessionBus()
        let file = try write("a.txt", Array("a\n".utf8))
        for arguments in [[file], ["--email", "--devices", file], ["--devices", file], ["--device", "x", "--to", "a@b.c", file],
                          ["--email", "--json", file], ["--email"]] {
            let result = share(arguments, bus: bus)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
        let subject = share(["--email", "--subject", "two\nlines", file], bus: bus)
        #expect(subject.status == 64, "\(subject.standardError)")
    }
}
