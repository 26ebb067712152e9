import Foundation
import Testing
import QuireTestSupport

/// The command line as a new user meets it: file names that start with '-', a missing folder or
/// a folder where a file is needed, the same exit status in every command, each failure said
/// once, a dry run that counts only what would be made.
@Suite struct CommandLineConsistencyTests {
    let directory = TemporaryDirectory("quire-cli")

    @Test func aFileNameThatLooksLikeOptionsIsRefusedWithTheRemedy() throws {
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: directory.file("-dash.pdf"))
        let refused = ProcessRunner.run([QuireBinary.path, "info", "-dash.pdf"], timeout: 30, workingDirectory: directory.path)
        #expect(refused.status == 64, "\(refused.status) \(refused.standardOutputText)")
        #expect(refused.errorLines == ["quire: -dash.pdf: a file name that starts with '-' is read as options; "
                                       + "put -- before it (quire info -- -dash.pdf) or write it as ./-dash.pdf"], "\(refused.standardError)")
        #expect(refused.standardOutputText.isEmpty, "no help text")
        for arguments in [["info", "--", "-dash.pdf"], ["info", "./-dash.pdf"]] {
            let read = ProcessRunner.run([QuireBinary.path] + arguments, timeout: 30, workingDirectory: directory.path)
            #expect(read.status == 0 && read.standardOutputText.contains("PDF document"), "\(arguments): \(read.standardError)")
        }
    }

    @Test func aMissingFolderInABatchIs66AndSaidOnce() throws {
        let tree = directory.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: tree + "/a.pdf")
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": directory.file("cache")]) { $1 }
        let result = QuireBinary.run(["thumbnail", "--batch", directory.file("nosuchdir"), tree], timeout: 60, environment: environment)
        #expect(result.status == 66, "\(result.status) \(result.standardError)")
        #expect(result.errorLines == ["quire: \(directory.file("nosuchdir")): no such file or directory"], "\(result.standardError)")
        #expect(!result.standardOutputText.contains("nosuchdir"), "the failure is said once: \(result.standardOutputText)")
        #expect(result.standardOutputText.contains("1 generated") && result.standardOutputText.contains("1 failed"))
        // A file that fails on its own is 65, as before.
        try Data("%PDF-1.4 broken".utf8).write(to: URL(fileURLWithPath: tree + "/broken.pdf"))
        let damaged = QuireBinary.run(["thumbnail", "--batch", tree], timeout: 60, environment: environment)
        #expect(damaged.status == 65, "\(damaged.status) \(damaged.standardError)")
    }

    @Test func aDryRunDoesNotCountWhatWouldBeSkipped() throws {
        let tree = directory.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: tree + "/a.pdf")
        // Binary data with NUL bytes: no text, no known type.
        try Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97) }).write(to: URL(fileURLWithPath: tree + "/blob.bin"))
        let result = QuireBinary.run(["thumbnail", "--batch", "--dry-run", tree], timeout: 60,
                                     environment: ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": directory.file("cache")]) { $1 })
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText.hasPrefix("1 to generate (dry run)") && result.standardOutputText.contains("1 skipped"),
                "\(result.standardOutputText)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("cache")), "a dry run writes nothing")
    }

    /// A folder given to the viewer is refused before anything opens, as a missing file is (66).
    @Test func theViewerRefusesAFolderAsInfoDoes() throws {
        let session = try TmuxSession([QuireBinary.path, "look", "--terminal", directory.path],
                                      environment: ["TERM": "xterm-256color", "XDG_STATE_HOME": directory.file("state")])
        // tmux wraps the long line: read the screen without its line breaks.
        let screen = session.wait(for: "EXIT=").filter { $0 != "\n" }
        #expect(screen.contains("is a directory, not a file") && screen.contains("EXIT=66"), "\(screen)")
        let info = QuireBinary.run(["info", directory.path])
        #expect(info.status == 66)
    }
}

extension CommandLineConsistencyTests {
    /// `info --json` gives a name with a newline as JSON escapes it, once: parsed back, the path
    /// is the file's own and opens.
    @Test func jsonPathsParseBackToTheFile() throws {
        let odd = directory.file("new\nline \u{1B}[31m.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: odd)
        let result = QuireBinary.run(["info", "--json", odd])
        #expect(result.status == 0, "\(result.standardError)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput))
        let record = try #require((parsed as? [[String: Any]])?.first ?? parsed as? [String: Any])
        #expect(record["path"] as? String == odd)
        #expect(record["name"] as? String == "new\nline \u{1B}[31m.pdf")
        #expect(FileManager.default.fileExists(atPath: try #require(record["path"] as? String)))
    }
}

extension CommandLineConsistencyTests {
    /// A type Quire has no thumbnail for is said as such by `thumbnail`, by name.
    @Test func aThumbnailOfAProgramSaysWhatItIs() throws {
        let program = directory.file("tool")
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: program)
        let result = QuireBinary.run(["thumbnail", program, directory.file("t.png")])
        #expect(result.status == 65)
        #expect(result.errorLines.count == 1 && result.standardError.contains("cannot be thumbnailed ("), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("t.png")))
    }

    /// A database whose header is all there is (the schema page is zeros) is damaged: one line,
    /// status 65, no thumbnail written.
    @Test func aThumbnailOfADamagedDatabaseIsOneLine() throws {
        let database = directory.file("app.sqlite")
        var header = Array("SQLite format 3\0".utf8)
        header += [0x10, 0x00, 0x01, 0x01, 0x00, 0x40, 0x20, 0x20] + [UInt8](repeating: 0, count: 4096 - header.count - 8)
        try Data(header).write(to: URL(fileURLWithPath: database))
        let result = QuireBinary.run(["thumbnail", database, directory.file("t.png")])
        #expect(result.status == 65)
        #expect(result.errorLines.count == 1 && result.standardError.contains("SQLite database"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("t.png")))
    }
}

extension CommandLineConsistencyTests {
    /// `preview --info` in a 40-row terminal: the card and the picture below it both fit on the
    /// screen (the picture is made smaller by the card's rows), so the card's first line is
    /// still there when the command ends.
    @Test func theCardAndThePictureFitTheTerminalTogether() throws {
        let session = try TmuxSession([QuireBinary.path, "preview", "--info", Samples.path("document.pdf")],
                                      environment: ["TERM": "xterm-256color", "QUIRE_GRAPHICS": "blocks", "NO_COLOR": "1"],
                                      width: 100, height: 40)
        let screen = session.wait(for: "EXIT=")
        #expect(screen.contains("EXIT=0"), "\(screen)")
        #expect(screen.contains("Kind:") && screen.contains("PDF document"), "the card scrolled off: \(screen)")
        #expect(screen.contains("▀") || screen.contains("▄"), "the picture is there too")
    }
}
