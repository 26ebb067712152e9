import Foundation
import QuireTestSupport
import QuireTypes
import Testing
import QuireRender
@testable import QuireThumbnails

/// The byte-level up-to-date check agrees with the general metadata reader, and defers to it
/// whenever the first 4 KiB do not settle the question.
@Suite struct CacheEntryProbeTests {
    /// A marker PNG with Thumb::URI, Thumb::MTime 42 and Thumb::Size 7.
    static func marker(_ directory: TemporaryDirectory) throws -> [UInt8] {
        let cache = ThumbnailCache(root: directory.file("thumbnails"))
        let key = try #require(ThumbnailKey(path: DocumentPath("/tmp/some file.pdf")))
        let path = try cache.storeFailure(for: key, modificationTime: 42, size: 7)
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The PNG's chunks (type, whole chunk bytes), after the signature.
    static func chunks(_ png: [UInt8]) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            out.append((String(decoding: png[offset + 4..<offset + 8], as: UTF8.self), Array(png[offset..<offset + 12 + length])))
            offset += 12 + length
        }
        return out
    }

    static func answer(_ png: [UInt8], mtime: Int64, size: Int64) -> CacheEntryProbe.Answer? {
        png.withUnsafeBytes { CacheEntryProbe.compare($0, modificationTime: mtime, size: size) }
    }

    @Test func agreesWithTheMetadataReader() throws {
        let directory = TemporaryDirectory("quire-probe")
        let png = try Self.marker(directory)
        #expect(Self.answer(png, mtime: 42, size: 7) == .current)
        #expect(Self.answer(png, mtime: 43, size: 7) == .stale)
        #expect(Self.answer(png, mtime: 42, size: 8) == .stale)
        let metadata = try #require(PNGChunks.textChunks(png).flatMap(ThumbnailMetadata.init(text:)))
        #expect(metadata.isCurrent(modificationTime: 42, size: 7) && !metadata.isCurrent(modificationTime: 43, size: 7))
        // Through a file, as the cache reads it.
        let file = directory.file("entry.png")
        try Data(png).write(to: URL(fileURLWithPath: file))
        #expect(ThumbnailCache.state(at: file, modificationTime: 42, size: 7).isCurrent)
        #expect(ThumbnailCache.state(at: file, modificationTime: 41, size: 7) == .stale(path: file))
        #expect(ThumbnailCache.state(at: directory.file("none.png"), modificationTime: 42, size: 7) == .missing)
    }

    @Test func keysAfterTheImageOrUnreadableValuesAreLeftToTheGeneralReader() throws {
        let directory = TemporaryDirectory("quire-probe")
        let png = try Self.marker(directory)
        let parts = Self.chunks(png)
        // Keys moved after IDAT: like the general reader (which reads keys up to the image data,
        // where thumbnailers put them), the entry counts as missing and is regenerated.
        let text = parts.filter { $0.0 == "tEXt" }.flatMap(\.1)
        let moved = Array(png[0..<8]) + parts.filter { $0.0 == "IHDR" || $0.0 == "IDAT" }.flatMap(\.1) + text
            + parts.filter { $0.0 == "IEND" }.flatMap(\.1)
        #expect(Self.answer(moved, mtime: 42, size: 7) == .missing)
        #expect(PNGChunks.textChunks(moved).flatMap(ThumbnailMetadata.init(text:)) == nil)
        let file = directory.file("moved.png")
        try Data(moved).write(to: URL(fileURLWithPath: file))
        #expect(ThumbnailCache.state(at: file, modificationTime: 42, size: 7) == .missing)
        // No keys at all: not a thumbnail.
        let bare = Array(png[0..<8]) + parts.filter { $0.0 != "tEXt" }.flatMap(\.1)
        #expect(Self.answer(bare, mtime: 42, size: 7) == .missing)
        // Keys past the first 4 KiB (other chunks before them): settled by the general reader.
        let keyed = try #require(PNGChunks.inserting(text: [("Thumb::URI", "file:///x"), ("Thumb::MTime", "42")], into: bare))
        let padded = try #require(PNGChunks.inserting(
            text: (0..<40).map { ("Quire::Padding\($0)", String(repeating: "x", count: 200)) }, into: keyed))
        #expect(Self.answer(Array(padded.prefix(CacheEntryProbe.prefix)), mtime: 42, size: 7) == nil)
        let paddedFile = directory.file("padded.png")
        try Data(padded).write(to: URL(fileURLWithPath: paddedFile))
        #expect(ThumbnailCache.state(at: paddedFile, modificationTime: 42, size: 7).isCurrent)
        #expect(ThumbnailCache.state(at: paddedFile, modificationTime: 41, size: 7) == .stale(path: paddedFile))
        // Not a PNG; a cut PNG.
        #expect(Self.answer(Array("not a png at all".utf8), mtime: 42, size: 7) == nil)
        #expect(Self.answer(Array(png.prefix(40)), mtime: 42, size: 7) == nil)
        #expect(CacheEntryProbe.integer(UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
        #expect(Array("-12".utf8).withUnsafeBytes { CacheEntryProbe.integer($0) } == -12)
        #expect(Array("1x".utf8).withUnsafeBytes { CacheEntryProbe.integer($0) } == nil)
    }
}
