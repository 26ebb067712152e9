import Foundation
import Testing
import QuireTestSupport

@Suite struct ThumbnailCommandTests {
    /// Bad input of every family: one line on stderr naming the file, a sysexits status, no
    /// hang, and nothing (not even a temporary file) left in the output directory.
    @Test(arguments: [
        ("truncated.pdf", 65), ("garbage.pdf", 65), ("encrypted.pdf", 65),
        ("truncated.png", 65), ("truncated.jpg", 65), ("garbage.jpg", 65), ("garbage.gif", 65),
        ("pixel-bomb.png", 65), ("truncated.svg", 65),
        ("bomb.odt", 65), ("many-entries.cbz", 65), ("truncated.odt", 65), ("truncated.epub", 65),
        ("garbage.ps", 65),
    ])
    func badInputFailsCleanly(name: String, status: Int32) throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url
        let output = directory.appendingPathComponent("out.png").path
        let result = QuireBinary.run(["thumbnail", "-s", "128", Samples.path(name), output])
        #expect(!result.timedOut)
        #expect(result.status == status, "\(name): \(result.standardError)")
        #expect(result.errorLines.count == 1, "\(name): \(result.standardError)")
        #expect(result.standardError.hasPrefix("quire: ") && result.standardError.contains(name))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// The thumbnailer contract's one-file path draws the pages the batch workers draw without
    /// cairo the same way: a page with a function shading (cairo: 3.6 s and 1.6 GB) through
    /// Splash, a page that is one large image (cairo: 117 MB) decoded at thumbnail size.
    @Test(arguments: ["shading-function.pdf", "huge-image.pdf"])
    func pagesCairoIsSlowOnTakeTheFastPaths(name: String) throws {
        let scratch = TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("out.png").path
        let (status, peakKiB) = try Self.runMeasuringMemory([QuireBinary.path, "thumbnail", "-s", "256", Samples.path(name), output])
        #expect(status == 0, "\(name)")
        #expect(peakKiB < 80_000, "\(name): peak resident memory \(peakKiB) kB")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        func be32(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(max(be32(16), be32(20)) == 256, "\(name): \(be32(16))×\(be32(20))")
        #expect(Self.textChunks(png)["Thumb::Document::Pages"] == "1", "\(name): the page count is recorded")
    }

    /// Runs `arguments` and returns its exit status and peak resident set size, through a small
    /// python3 parent that spawns it and reads wait4's rusage: a process spawned from this test
    /// runner directly inherits the runner's own peak (vfork shares its memory until exec, and
    /// Linux keeps that peak across exec), ~160 MB.
    static func runMeasuringMemory(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
        let script = """
            import os, sys
            pid = os.posix_spawn(sys.argv[1], sys.argv[1:], dict(os.environ))
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script] + arguments, timeout: 60)
        let words = result.standardOutputText.split(separator: " ")
        guard result.status == 0, words.count == 2, let status = Int32(words[0]),
              let peak = Int(words[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: result.standardError])
        }
        return (status, peak)
    }

    @Test func specialFilesAreRefusedWithoutBlocking() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url
        let inputScratch = TemporaryDirectory()
        let inputs = inputScratch.url
        let fifo = inputs.appendingPathComponent("pipe.pdf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let empty = inputs.appendingPathComponent("empty.pdf").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let folder = inputs.appendingPathComponent("folder.png").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (input, status) in [(fifo, Int32(66)), (empty, 65), (folder, 66), (inputs.appendingPathComponent("missing.pdf").path, 66)] {
            let result = QuireBinary.run(["thumbnail", input, directory.appendingPathComponent("out.png").path], timeout: 10)
            #expect(!result.timedOut, "\(input) hung")
            #expect(result.status == status, "\(input): \(result.standardError)")
            #expect(result.errorLines.count == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func endlessDocumentIsStoppedByTheTimeout() throws {
        let scratch = TemporaryDirectory()
        let output = scratch.url.appendingPathComponent("out.png").path
        let result = QuireBinary.run(["thumbnail", "--timeout", "2", Samples.path("infinite-loop.ps"), output], timeout: 30)
        #expect(!result.timedOut)
        #expect(result.status == 75)
        #expect(result.errorLines.count == 1 && result.standardError.contains("gave up after 2 s"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func unwritableOutputIsStatus73() throws {
        let result = QuireBinary.run(["thumbnail", Samples.path("document.pdf"), "/nonexistent-dir/out.png"])
        #expect(result.status == 73)
        #expect(result.errorLines.count == 1)
    }

    @Test func fileURIWithEscapesIsDecoded() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url
        let input = directory.appendingPathComponent("my document.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: input.path)
        let uri = "file://" + directory.path + "/my%20document.pdf"
        let output = directory.appendingPathComponent("thumb.png")
        let result = QuireBinary.run(["thumbnail", "-s", "128", uri, output.path])
        #expect(result.status == 0, "\(result.standardError)")
        let png = [UInt8](try Data(contentsOf: output))
        let text = Self.textChunks(png)
        #expect(text["Thumb::URI"] == uri)
        #expect(text["Thumb::Mimetype"] == "application/pdf")
        #expect(text["Thumb::Document::Pages"] == "3")
        #expect(text["Software"]?.hasPrefix("Quire ") == true)
        #expect(text["Thumb::MTime"] != nil && text["Thumb::Size"] == "19187" || text["Thumb::Size"] != nil)
        // IHDR: height 128 (A4 portrait), 8-bit RGBA, not interlaced.
        #expect(Array(png[16..<24]) == [0, 0, 0, 91, 0, 0, 0, 128])
        #expect(png[24] == 8 && png[25] == 6 && png[28] == 0)
        // Written with mode 0600 (the thumbnail cache's mode).
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func remoteURIsAreNotFetched() throws {
        let result = QuireBinary.run(["thumbnail", "http://example.invalid/x.pdf", "/tmp/never.png"])
        #expect(result.status == 66)
        #expect(result.errorLines.count == 1)
    }

    static func textChunks(_ bytes: [UInt8]) -> [String: String] {
        var text: [String: String] = [:]
        var offset = 8
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        while offset + 12 <= bytes.count {
            let length = u32(offset)
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == "tEXt" {
                let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
                if let zero = data.firstIndex(of: 0) {
                    text[String(decoding: data[..<zero], as: UTF8.self)] = String(decoding: data[(zero + 1)...], as: UTF8.self)
                }
            }
            offset += 12 + length
        }
        return text
    }
}
