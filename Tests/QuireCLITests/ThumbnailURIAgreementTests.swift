#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// One file, one cache entry: `quire thumbnail IN OUT` (what a file manager runs per file) and
/// `quire thumbnail --batch` name a file by the same `Thumb::URI` and so the same cache file,
/// the one GLib computes — a file manager's thumbnail is found by the batch and the other way
/// round, whatever the file is called and however it was given on the command line.
@Suite struct ThumbnailURIAgreementTests {
    /// `ROOT/dir/NAME` for each awkward name; the commands run in `ROOT/sub` and are given
    /// `../dir/NAME` (or `../dir`).
    final class Fixture: @unchecked Sendable {
        let root = TemporaryDirectory("quire-uri-agreement")
        var directory: [UInt8] { Array(root.file("dir").utf8) }
        var working: String { root.file("sub") }
        var cacheHome: String { root.file("cache") }

        init() throws {
            try FileManager.default.createDirectory(atPath: root.file("dir"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: working, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root.file("one"), withIntermediateDirectories: true)
            let pdf = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Samples.path("document.pdf"))))
            for name in AwkwardFileNames.all.map(\.bytes) {
                let path = directory + [0x2F] + name + [0]
                let fd = path.withUnsafeBufferPointer {
                    $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
                }
                guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                _ = pdf.withUnsafeBytes { write(fd, $0.baseAddress, pdf.count) }
                close(fd)
            }
        }
    }

    /// The file's tEXt chunks (read as PNG chunks: a name's bytes are not text).
    static func textChunks(_ path: String) throws -> [String: String] {
        ThumbnailCommandTests.textChunks([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// A non-canonical spelling of the file's URI: `localhost`, a dot segment, every byte
    /// escaped in lowercase hex. GLib reads it as the same file.
    static func unusualURI(_ absolute: [UInt8]) -> String {
        "file://localhost/./" + absolute.dropFirst().map { $0 == 0x2F ? "/" : String(format: "%%%02x", $0) }.joined()
    }

    @Test func oneFileAndBatchNameTheSameCacheEntryAsGLib() throws {
        let fixture = try Fixture()
        let names = AwkwardFileNames.all
        let relative = names.map { Array("../dir/".utf8) + $0.bytes }
        let references = try GLibReference.answers(names.map { name in
            (absolute: fixture.directory + [0x2F] + name.bytes, argument: Array("../dir/".utf8) + name.bytes,
             directory: Array(fixture.working.utf8))
        })
        for (name, reference) in zip(names, references) {
            #expect(reference.uri == reference.commandLineURI, "\(name.label): GLib's two ways agree")
        }

        // The batch, given `../dir`, into a private cache.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = fixture.cacheHome
        environment["NO_COLOR"] = "1"
        let batch = ProcessRunner.run([QuireBinary.path, "thumbnail", "--batch", "--json", "../dir"],
                                      environment: environment, timeout: 120, workingDirectory: fixture.working)
        #expect(batch.status == 0, "\(batch.standardError)")
        let large = fixture.cacheHome + "/thumbnails/large"
        let written = Set((try? FileManager.default.contentsOfDirectory(atPath: large)) ?? [])
        #expect(written == Set(references.map { $0.md5 + ".png" }), "the batch's cache files are GLib's names")
        var batchURIs: [String] = []
        for line in batch.standardOutputText.split(separator: "\n") {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               object["event"] as? String == "file", let uri = object["uri"] as? String {
                batchURIs.append(uri)
            }
        }
        #expect(Set(batchURIs) == Set(references.map(\.uri)), "--json reports GLib's URIs")

        for (index, (name, reference)) in zip(names, references).enumerated() {
            // The batch's entry says which file it shows.
            let entry = large + "/" + reference.md5 + ".png"
            #expect(try Self.textChunks(entry)["Thumb::URI"] == reference.uri, "\(name.label): batch")

            // One file, given by a relative path with `..`, as a file manager's thumbnailer runs it.
            let output = fixture.root.file("one/\(index).png")
            let single = ProcessRunner.run(bytes: [Array(QuireBinary.path.utf8), Array("thumbnail".utf8), relative[index], Array(output.utf8)],
                                           environment: environment, timeout: 60, workingDirectory: fixture.working)
            #expect(single.status == 0, "\(name.label): \(single.standardError)")
            let text = try Self.textChunks(output)
            #expect(text["Thumb::URI"] == reference.uri, "\(name.label): one file by path")
            #expect(text["Thumb::MTime"] == (try Self.textChunks(entry))["Thumb::MTime"], "\(name.label): the same file")

            // One file, given by a URI spelled another way: the canonical URI is written.
            let byURI = fixture.root.file("one/\(index)-uri.png")
            let unusual = Self.unusualURI(fixture.directory + [0x2F] + name.bytes)
            let fromURI = ProcessRunner.run([QuireBinary.path, "thumbnail", unusual, byURI],
                                            environment: environment, timeout: 60, workingDirectory: fixture.working)
            #expect(fromURI.status == 0, "\(name.label): \(unusual): \(fromURI.standardError)")
            #expect(try Self.textChunks(byURI)["Thumb::URI"] == reference.uri, "\(name.label): one file by URI \(unusual)")
        }
    }
}
