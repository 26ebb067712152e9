#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// Markdown through the built binary: info's title, outline and words; no request reaches a
/// listener on loopback that the file's images and links point at, whatever the command; the
/// terminal viewer draws the structure in colour, and not with NO_COLOR.
@Suite("Markdown through quire")
final class MarkdownCommandTests {
    let directory = TemporaryDirectory("quire-markdown")

    /// A TCP listener on 127.0.0.1 (any free port) that never accepts: a connection attempt
    /// waits in its backlog, where ``connectionsWaiting`` finds it.
    final class Listener {
        let socket: Int32
        let port: Int

        init() throws {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
            guard bound == 0, listen(socket, 16) == 0 else { close(socket); throw POSIXError(.EADDRINUSE) }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            self.socket = socket
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(socket) }

        /// Connections made to it so far (accepted here and closed).
        func connectionsWaiting() -> Int {
            var count = 0
            while true {
                let connection = accept(socket, nil, nil)
                if connection < 0 { return count }
                close(connection)
                count += 1
            }
        }
    }

    @Test func infoSaysTitleOutlineAndWords() throws {
        let result = QuireBinary.run(["info", Samples.path("data/readme.md")])
        #expect(result.status == 0, "\(result.standardError)")
        let card = result.standardOutputText
        #expect(card.contains("Title:      Quire Notes"), "\(card)")
        #expect(card.contains("Headings:   3"))
        #expect(card.contains("                Lists\n                  Code"), "the outline indented by level: \(card)")
        let json = QuireBinary.run(["info", "--json", Samples.path("data/readme.md")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let markdown = try #require(records.first?["markdown"] as? [String: Any])
        #expect(markdown["title"] as? String == "Quire Notes")
        #expect((markdown["headings"] as? [[String: Any]])?.map { $0["level"] as? Int } == [1, 2, 3])
        #expect((markdown["words"] as? Int ?? 0) > 50)
    }

    /// The sample's remote image, HTML image and links, pointed at a listener on loopback: info,
    /// preview (a page and PDF), thumbnail and the terminal viewer make no request to it.
    @Test func noCommandFetchesAnything() throws {
        let listener = try Listener()
        let markdown = try String(contentsOfFile: Samples.path("data/readme.md"), encoding: .utf8)
            .replacingOccurrences(of: "PORT", with: String(listener.port))
            .replacingOccurrences(of: "https://example.org", with: "http://127.0.0.1:\(listener.port)")
        let path = directory.file("remote.md")
        try markdown.write(toFile: path, atomically: true, encoding: .utf8)
        // The listener works: a connection to it is seen.
        let probe = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(listener.port).bigEndian)
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(connected == 0)
        close(probe)
        #expect(listener.connectionsWaiting() == 1)

        #expect(QuireBinary.run(["info", path]).status == 0)
        #expect(QuireBinary.run(["preview", path, "-o", directory.file("page.png")]).status == 0)
        #expect(QuireBinary.run(["preview", path, "--format", "pdf", "-o", directory.file("page.pdf")]).status == 0)
        #expect(QuireBinary.run(["thumbnail", path, directory.file("thumb.png")]).status == 0)
        let session = try TmuxSession([QuireBinary.path, "look", path], environment: LookEnvironment.plain(directory))
        session.wait(for: "not fetched")
        session.send("q")
        session.wait(for: "EXIT=")
        #expect(listener.connectionsWaiting() == 0, "a command made a request to the listener")
    }

    @Test func theTerminalDrawsTheStructureInColourUnlessNoColor() throws {
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("data/readme.md")],
                                      environment: LookEnvironment.plain(directory))
        var screen = session.wait(for: "Quire Notes")
        #expect(screen.contains("• second item with a local link <other.md>"), "\(screen)")
        #expect(screen.contains("│ Linus │ Helsinki │      7 │"))
        let coloured = session.capture(escapes: true)
        #expect(coloured.contains("\u{1B}[1;4m\u{1B}[35mQuire Notes") || coloured.contains("\u{1B}[0;1;4;35m"),
                "the first heading bold, underlined, magenta: \(coloured.prefix(300).debugDescription)")
        #expect(coloured.contains("\u{1B}[3mdata"), "emphasis in italics")
        // The Swift block coloured by its language (GtkSourceView's swift.lang, classic
        // scheme): "let" a declaration (green, bold), not inline code's yellow; "42" a number
        // (magenta).
        let declaration = Self.escapes(before: "let", followedBy: " answer", in: coloured)
        #expect(declaration.contains("32") && declaration.contains("1m") && !declaration.contains("33"), "\(coloured.debugDescription)")
        #expect(Self.escapes(before: "42", followedBy: "", in: coloured).contains("35"))
        session.send("q")
        session.wait(for: "EXIT=")

        var env = LookEnvironment.plain(directory)
        env["NO_COLOR"] = "1"
        let plain = try TmuxSession([QuireBinary.path, "look", Samples.path("data/readme.md")], environment: env)
        screen = plain.wait(for: "Quire Notes")
        let captured = plain.capture(escapes: true)
        #expect(!captured.contains("[35m") && !captured.contains("[3m"), "NO_COLOR: no colours, no italics")
        #expect(!Self.escapes(before: "let", followedBy: " answer", in: captured).contains("32"), "NO_COLOR: code uncoloured")
        #expect(screen.contains("Quire shows data and notes"))
        plain.send("q")
        plain.wait(for: "EXIT=")
    }
}

extension MarkdownCommandTests {
    /// The escape sequences written right before `text` where the visible text after it goes
    /// on with `next` (tmux's capture with escapes).
    static func escapes(before text: String, followedBy next: String, in screen: String) -> String {
        var from = screen.startIndex
        var found: Range<String.Index>?
        while let range = screen.range(of: text, range: from..<screen.endIndex) {
            var after = screen[range.upperBound...]
            while after.hasPrefix("\u{1B}["), let end = after.firstIndex(of: "m") { after = after[after.index(after: end)...] }
            if after.hasPrefix(next) { found = range; break }
            from = range.upperBound
        }
        guard let range = found else { return "" }
        var escapes = "", rest = screen[..<range.lowerBound]
        while rest.hasSuffix("m"), let start = rest.range(of: "\u{1B}[", options: .backwards) {
            let sequence = rest[start.lowerBound...]
            guard sequence.dropFirst(2).dropLast().allSatisfy({ $0.isNumber || $0 == ";" }) else { break }
            escapes = sequence + escapes
            rest = rest[..<start.lowerBound]
        }
        return escapes
    }

    @Test func aNotebookIsDescribedAndShownInTheTerminal() throws {
        let result = QuireBinary.run(["info", Samples.path("data/analysis.ipynb")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText.contains("Kernel:     Python 3 (ipykernel)"), "\(result.standardOutputText)")
        #expect(result.standardOutputText.contains("Cells:      4 code, 2 markdown"))
        // The thumbnail is the first image output (64×48, not enlarged), not the page.
        let thumbnail = directory.file("notebook.png")
        #expect(QuireBinary.run(["thumbnail", Samples.path("data/analysis.ipynb"), thumbnail]).status == 0)
        let png = try Data(contentsOf: URL(fileURLWithPath: thumbnail))
        #expect(png[16..<24].map { $0 } == [0, 0, 0, 64, 0, 0, 0, 48], "IHDR 64×48")
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("data/analysis.ipynb")],
                                      environment: LookEnvironment.plain(directory))
        let screen = session.wait(for: "[image/png output]")
        #expect(screen.contains("In [1]:") && screen.contains("ZeroDivisionError: division by zero"), "\(screen)")
        #expect(!screen.contains("▀"), "text, not a picture of a page")
        // The traceback in the colours it was written in (red, green); none with NO_COLOR.
        let coloured = session.capture(escapes: true)
        #expect(coloured.contains("\u{1B}[31mZeroDivisionError") || coloured.contains("\u{1B}[0;31mZeroDivisionError"),
                "\(coloured.debugDescription)")
        #expect(coloured.contains("\u{1B}[32m----> 1") || coloured.contains("\u{1B}[0;32m----> 1"))
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
        var env = LookEnvironment.plain(directory)
        env["NO_COLOR"] = "1"
        let plain = try TmuxSession([QuireBinary.path, "look", Samples.path("data/analysis.ipynb")], environment: env)
        _ = plain.wait(for: "ZeroDivisionError Traceback")
        let captured = plain.capture(escapes: true)
        #expect(!captured.contains("31m") && !captured.contains("32m"), "NO_COLOR: no colours")
        plain.send("q")
        plain.wait(for: "EXIT=")
    }
}
