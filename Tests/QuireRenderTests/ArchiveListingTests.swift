import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// The archive engine on archives Samples/archives.py builds with Python's tarfile and zipfile:
/// an ordinary tree, hostile names and links, a zip bomb, a file that only claims to be a zip.
@Suite struct ArchiveListingTests {
    static let treeSize: Int64 = 10 + 29 + 14 * 200 + 6 * 1000   // the four files' bytes

    @Test(arguments: [("project.tar.gz", "application/x-compressed-tar", ["gzip"]),
                      ("project.tar.xz", "application/x-xz-compressed-tar", ["xz"]),
                      ("project.zip", "application/zip", [])])
    func anArchiveIsListedWithSizesDatesAndItsCompression(name: String, mime: String, filters: [String]) throws {
        let file = try SampleFiles.open("archives/\(name)")
        let type = try ContentType.detect(file)
        #expect(type.mimeType == mime)
        #expect(type.family == .archive)
        #expect(type.capabilities.preview.isSupported)
        #expect(type.capabilities.print.reason?.contains("does not print archives") == true)
        let listing = try ArchiveListing.read(file)
        #expect(listing.filters == filters)
        #expect(listing.fileCount == 4)
        #expect(listing.totalSize == Self.treeSize)
        #expect(listing.truncation == nil)
        #expect(listing.entries.allSatisfy { $0.modified == 1_700_000_000 })
        #expect(listing.entries.contains { $0.path == "project/src/util/strings.c" && $0.size == 2800 })
        #expect(!listing.entries.contains { $0.isUnsafe })
    }

    /// Folders are stored entries ("uncompressed"); libarchive names a zip after the last
    /// header it read, here a folder. The method is the files'.
    @Test func aZipsMethodComesFromTheEntriesThatHoldData() throws {
        let listing = try ArchiveListing.read(SampleFiles.open("archives/folders.zip"))
        #expect(listing.entries.first?.kind == .directory)
        #expect(listing.entries.last?.kind == .directory)
        #expect(listing.format == "ZIP 2.0 (deflation)")
        // Most bytes win when the entries differ; no data at all keeps libarchive's last name.
        #expect(ArchiveListing.dataFormat([("ZIP 1.0 (uncompressed)", 10), ("ZIP 2.0 (deflation)", 900)]) == "ZIP 2.0 (deflation)")
        #expect(ArchiveListing.dataFormat([]) == nil)
    }

    @Test func theListingPagesShowTheTreeAndTheTotals() throws {
        let renderer = try SampleFiles.renderer("archives/project.tar.gz")
        #expect(renderer.pageCount == 1)
        let text = try #require(try renderer.text(page: 0))
        #expect(text.contains("project.tar.gz — 5 entries, 8.8 kB unpacked, 332 bytes packed"))
        #expect(text.contains("2023-11-14 22:13"))
        // Folders once, names indented under them; the link with its target.
        #expect(text.contains("\n" + String(repeating: " ", count: 32) + "project/\n"))
        #expect(text.contains("      util/\n"))
        #expect(text.contains("2,800"))
        #expect(text.contains("latest → src/main.c"))
        let image = try renderer.render(page: 0, size: .width(595))
        var ink = 0
        for y in 40..<200 { for x in 40..<500 where image.pixel(x: x, y: y).green < 128 { ink += 1 } }
        #expect(ink > 1000)
    }

    @Test func namesThatClimbOutAreMarkedAndControlCharactersShownAsQuestionMarks() throws {
        let zip = try ArchiveListing.read(SampleFiles.open("archives/hostile.zip"))
        #expect(zip.entries.filter(\.isUnsafe).map(\.path).sorted() == ["../../escape.txt", "/etc/absolute.txt"])
        let text = try #require(try SampleFiles.renderer("archives/hostile.zip").text(page: 0))
        #expect(text.contains("2 entries would unpack outside the folder"))
        #expect(text.contains("!../../escape.txt"))
        #expect(text.contains("bell?name.txt"))
        #expect(!text.unicodeScalars.contains { $0.value == 7 })

        let tar = try ArchiveListing.read(SampleFiles.open("archives/hostile.tar"))
        #expect(tar.entries.first { $0.path == "passwd" }?.isUnsafe == true)
        #expect(tar.entries.first { $0.path == "here" }?.isUnsafe == false)
    }

    @Test(arguments: [("a/b/../c", nil, false), ("a/../../c", nil, true), ("/abs", nil, true), ("./x", nil, false),
                      ("dir/link", "../sibling", false), ("dir/link", "../../out", true), ("link", "/etc/passwd", true)])
    func unsafePaths(path: String, target: String?, unsafe: Bool) {
        #expect(ArchiveListing.isUnsafe(path: path, linkTarget: target) == unsafe)
    }

    @Test func aZipBombIsListedFromItsHeadersWithoutInflating() throws {
        let file = try SampleFiles.open("archives/bomb.zip")
        let listing = try ArchiveListing.read(file)
        #expect(listing.entries.count == 1)
        #expect(listing.totalSize == 1 << 30)
        #expect(file.size < 2 << 20)
    }

    /// GNOME's thumbnail sandbox hands the thumbnailer a copy named "….gz": the tar inside is
    /// still listed; a compressed file that holds no archive is one entry (not mtree's guess).
    @Test func aCompressedTarUnderAPlainCompressionNameIsStillListedAsATar() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let renamed = directory.appendingPathComponent("gnome-desktop-file-to-thumbnail.gz")
        try FileManager.default.copyItem(atPath: SampleFiles.path("archives/project.tar.gz"), toPath: renamed.path)
        let file = try InputFile(path: DocumentPath(renamed.path))
        #expect(try ContentType.detect(file).family == .archive)
        let listing = try ArchiveListing.read(file)
        #expect(listing.format.contains("tar"))
        #expect(listing.totalSize == Self.treeSize)

        let text = directory.appendingPathComponent("notes.txt.gz")
        let gzip = try ProcessRunnerShim.gzip(Data(String(repeating: "hello\n", count: 100).utf8))
        try gzip.write(to: text)
        let plain = try ArchiveListing.read(InputFile(path: DocumentPath(text.path)))
        #expect(plain.entries.count == 1)
        #expect(plain.format == "raw")
    }

    @Test func theListingIsBoundedAndSaysSo() throws {
        let listing = try ArchiveListing.read(SampleFiles.open("archives/project.zip"), maximumEntries: 2)
        #expect(listing.entries.count == 2)
        #expect(listing.truncation == "the listing stops at 2 entries")
    }

    @Test func aFileThatOnlyClaimsToBeAZipIsRefusedWithLibarchivesReason() throws {
        #expect {
            _ = try SampleFiles.renderer("archives/not-a-zip.zip")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.hasPrefix("not a readable archive (")
        }
    }

    @Test func theThumbnailIsABoxWithTheEntryCount() throws {
        let image = try SampleFiles.renderer("archives/project.tar.gz").renderThumbnail(longestSide: 256)
        #expect(image.width == 256 && image.height == 256)
        // Cardboard in the middle of the box, dark text ("5 items") under it.
        #expect(image.pixel(x: 60, y: 150).isClose(to: 204, 161, 107, tolerance: 8))
        var ink = 0
        for y in 210..<245 { for x in 40..<216 where image.pixel(x: x, y: y).green < 100 { ink += 1 } }
        #expect(ink > 200)
    }
}

/// gzip(1) for a test input (no shell: the data go through a pipe).
enum ProcessRunnerShim {
    static func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }
}
