#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import QuireTypes
import Testing
import QuireRender
@testable import QuireThumbnails

/// The cache against the Thumbnail Managing Standard 0.9, on real files in a temporary cache.
@Suite struct ThumbnailCacheTests {
    /// An independent MD5 (coreutils `md5sum`) of `text`.
    static func md5sum(_ text: String, in directory: TemporaryDirectory) -> String {
        let file = directory.file("md5-input-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        let result = ProcessRunner.run(["/usr/bin/md5sum", file])
        return String(result.standardOutputText.prefix(32))
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func keyIsMD5OfThePercentEncodedCanonicalURI() throws {
        let directory = TemporaryDirectory()
        let raw = Array("/tmp/a dir/./x/../na#me é".utf8) + [0xFF] + Array(".pdf".utf8)
        let key = try #require(ThumbnailKey(path: DocumentPath(bytes: raw)))
        #expect(key.uri == "file:///tmp/a%20dir/na%23me%20%C3%A9%FF.pdf")
        #expect(key.canonicalPath.bytes == Array("/tmp/a dir/na#me é".utf8) + [0xFF] + Array(".pdf".utf8))
        #expect(key.md5 == Self.md5sum(key.uri, in: directory))
        #expect(key.fileName == key.md5 + ".png")

        let relative = try #require(ThumbnailKey(path: DocumentPath("b.pdf"), relativeTo: DocumentPath("/srv/docs")))
        #expect(relative.uri == "file:///srv/docs/b.pdf")
    }

    @Test func standardRootFollowsXDGCacheHomeWithHomeFallback() {
        #expect(ThumbnailCache.standardRoot(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]) == "/x/cache/thumbnails")
        #expect(ThumbnailCache.standardRoot(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.cache/thumbnails")
        #expect(ThumbnailCache.standardRoot(environment: ["HOME": "/home/u"]) == "/home/u/.cache/thumbnails")
        #expect(ThumbnailFlavor.allCases.map(\.pixelSize) == [128, 256, 512, 1024])
        #expect(ThumbnailFlavor.allCases.map(\.directoryName) == ["normal", "large", "x-large", "xx-large"])
    }

    @Test func storeIsAtomicWithModesAndLookupTracksMTimeAndSize() throws {
        let directory = TemporaryDirectory()
        let cache = ThumbnailCache(root: directory.file("cache/thumbnails"))
        let key = try #require(ThumbnailKey(path: DocumentPath(directory.file("doc.pdf"))))
        let metadata = ThumbnailMetadata(uri: key.uri, modificationTime: 1_700_000_000, size: 1234, mimeType: "application/pdf")
        let png = try #require(PNGChunks.inserting(text: metadata.textEntries, into: PNGChunks.emptyImage))

        #expect(cache.lookup(key, flavor: .large, modificationTime: 1_700_000_000, size: 1234) == .missing)
        let written = try cache.store(png: png, for: key, flavor: .large)
        #expect(written == directory.file("cache/thumbnails/large/\(key.md5).png"))
        #expect(Self.mode(written) == 0o600)
        #expect(Self.mode(directory.file("cache/thumbnails/large")) == 0o700)
        #expect(Self.mode(directory.file("cache/thumbnails")) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("cache/thumbnails/large"))
        #expect(names == [key.fileName], "no temporary file is left beside the entry")

        #expect(cache.lookup(key, flavor: .large, modificationTime: 1_700_000_000, size: 1234) == .current(path: written))
        #expect(cache.lookup(key, flavor: .large, modificationTime: 1_700_000_001, size: 1234) == .stale(path: written))
        #expect(cache.lookup(key, flavor: .large, modificationTime: 1_700_000_000, size: 999) == .stale(path: written))
        #expect(cache.lookup(key, flavor: .normal, modificationTime: 1_700_000_000, size: 1234) == .missing)
        let back = try #require(ThumbnailCache.metadata(at: written))
        #expect(back == metadata)
    }

    @Test func failureMarkersLiveInTheProgramDirectoryAndExpireWhenTheFileChanges() throws {
        let directory = TemporaryDirectory()
        let cache = ThumbnailCache(root: directory.file("thumbnails"))
        let key = try #require(ThumbnailKey(path: DocumentPath(directory.file("bad.pdf"))))
        let marker = try cache.storeFailure(for: key, modificationTime: 42, size: 7, reason: "damaged")
        #expect(marker == directory.file("thumbnails/fail/quire-\(QuireThumbnailsInfo.version)/\(key.md5).png"))
        #expect(Self.mode(marker) == 0o600)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: marker)))
        #expect(PNGChunks.isComplete(bytes))
        let text = try #require(PNGChunks.textChunks(bytes))
        #expect(text["Thumb::URI"] == key.uri)
        #expect(text["Thumb::MTime"] == "42")
        #expect(cache.lookupFailure(key, modificationTime: 42, size: 7).isCurrent)
        #expect(!cache.lookupFailure(key, modificationTime: 43, size: 7).isCurrent)
    }

    @Test func moveCopyDeleteAndCleanup() throws {
        let directory = TemporaryDirectory()
        let cache = ThumbnailCache(root: directory.file("thumbnails"))
        let oldPath = directory.file("old.pdf"), newPath = directory.file("new.pdf"), copyPath = directory.file("copy.pdf")
        _ = FileManager.default.createFile(atPath: newPath, contents: Data("x".utf8))
        _ = FileManager.default.createFile(atPath: copyPath, contents: Data("x".utf8))
        let old = try #require(ThumbnailKey(path: DocumentPath(oldPath)))
        let new = try #require(ThumbnailKey(path: DocumentPath(newPath)))
        let copy = try #require(ThumbnailKey(path: DocumentPath(copyPath)))
        let png = try #require(PNGChunks.inserting(text: ThumbnailMetadata(uri: old.uri, modificationTime: 5).textEntries,
                                                   into: PNGChunks.emptyImage))
        try cache.store(png: png, for: old, flavor: .normal)
        try cache.store(png: png, for: old, flavor: .large)

        #expect(try cache.move(from: old, to: new) == 2)
        #expect(cache.lookup(old, flavor: .normal, modificationTime: 5, size: 1) == .missing)
        #expect(ThumbnailCache.metadata(at: cache.path(for: new, flavor: .large))?.uri == new.uri)
        #expect(try cache.copy(from: new, to: copy) == 2)
        #expect(ThumbnailCache.metadata(at: cache.path(for: copy, flavor: .normal))?.uri == copy.uri)
        #expect(ThumbnailCache.metadata(at: cache.path(for: new, flavor: .normal))?.uri == new.uri)

        // A thumbnail whose original is gone is removed by cleanup; the others stay.
        try cache.store(png: png, for: old, flavor: .normal)
        try cache.storeFailure(for: old, modificationTime: 5, size: 1)
        #expect(cache.cleanup() == 2)
        #expect(FileManager.default.fileExists(atPath: cache.path(for: new, flavor: .normal)))
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: old, flavor: .normal)))
        #expect(cache.delete(copy) == 2)
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: copy, flavor: .large)))
    }

    /// Cache1.Cleanup's arguments narrow what is removed: `base_uris` by the original's
    /// location, `since` by `Thumb::MTime`; a thumbnail of an existing file always stays.
    @Test func cleanupHonoursBaseURIsAndSince() throws {
        let directory = TemporaryDirectory()
        let cache = ThumbnailCache(root: directory.file("thumbnails"))
        func entry(_ relative: String, mtime: Int64, exists: Bool = false) throws -> ThumbnailKey {
            let path = directory.file(relative)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            if exists { _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8)) }
            let key = try #require(ThumbnailKey(path: DocumentPath(path)))
            let png = try #require(PNGChunks.inserting(text: ThumbnailMetadata(uri: key.uri, modificationTime: mtime).textEntries,
                                                       into: PNGChunks.emptyImage))
            try cache.store(png: png, for: key, flavor: .large)
            return key
        }
        let gone = try entry("a/gone.pdf", mtime: 100)
        let goneNewer = try entry("a/newer.pdf", mtime: 300)
        let goneElsewhere = try entry("b/gone.pdf", mtime: 100)
        let goneSibling = try entry("ab/gone.pdf", mtime: 100)   // "a" is not a prefix of "ab/"
        let present = try entry("a/present.pdf", mtime: 100, exists: true)
        func exists(_ key: ThumbnailKey) -> Bool { FileManager.default.fileExists(atPath: cache.path(for: key, flavor: .large)) }
        let base = "file://" + directory.path + "/a/"

        #expect(cache.cleanup(baseURIs: ["http://example.invalid/a"]) == 0)
        #expect(cache.cleanup(baseURIs: [base], since: 200) == 1)
        #expect(!exists(gone) && exists(goneNewer) && exists(goneElsewhere) && exists(goneSibling) && exists(present))
        #expect(cache.cleanup(baseURIs: [base]) == 1)
        #expect(!exists(goneNewer) && exists(goneElsewhere) && exists(goneSibling))
        #expect(cache.cleanup() == 2)
        #expect(!exists(goneElsewhere) && !exists(goneSibling) && exists(present))
    }

    @Test func cacheKnowsWhatIsInsideIt() {
        let cache = ThumbnailCache(root: "/home/u/.cache/thumbnails/")
        #expect(cache.root == "/home/u/.cache/thumbnails")
        #expect(cache.contains(DocumentPath("/home/u/.cache/thumbnails/large/x.png")))
        #expect(cache.contains(DocumentPath("/home/u/.cache/thumbnails")))
        #expect(!cache.contains(DocumentPath("/home/u/.cache/thumbnails-old/x.png")))
        #expect(!cache.contains(DocumentPath("/home/u/doc.pdf")))
    }

    @Test func sharedRepositoryBesideTheFileIsRead() throws {
        let directory = TemporaryDirectory()
        let cache = ThumbnailCache(root: directory.file("thumbnails"))
        let file = directory.file("photo.jpg")
        let key = try #require(ThumbnailKey(path: DocumentPath(file)))
        let shared = directory.file(".sh_thumbnails/normal")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let png = try #require(PNGChunks.inserting(text: ThumbnailMetadata(uri: "photo.jpg", modificationTime: 9).textEntries,
                                                   into: PNGChunks.emptyImage))
        let name = ThumbnailKey.md5Hex(Array("photo.jpg".utf8)) + ".png"
        _ = FileManager.default.createFile(atPath: shared + "/" + name, contents: Data(png))
        #expect(cache.sharedThumbnail(for: key, flavor: .normal, modificationTime: 9, size: 1) == shared + "/" + name)
        #expect(cache.sharedThumbnail(for: key, flavor: .normal, modificationTime: 10, size: 1) == nil)
        #expect(cache.sharedThumbnail(for: key, flavor: .large, modificationTime: 9, size: 1) == nil)
    }

    @Test func shardsPartitionPathsExactly() throws {
        let paths = (0..<3000).map { Array("/data/tree/dir\($0 % 17)/file-\($0).pdf".utf8) }
        for count in [1, 2, 3, 7] {
            let shards = (1...count).map { ShardSpec(index: $0, count: count)! }
            var sizes = [Int](repeating: 0, count: count)
            for path in paths {
                let owners = shards.indices.filter { shards[$0].contains(pathBytes: path) }
                #expect(owners.count == 1)
                if let owner = owners.first { sizes[owner] += 1 }
            }
            // Roughly even: no shard is empty or holds more than twice its share.
            #expect(sizes.allSatisfy { $0 > 0 && $0 < 2 * paths.count / count + 1 })
        }
        #expect(ShardSpec("2/4") == ShardSpec(index: 2, count: 4))
        #expect(ShardSpec("0/4") == nil)
        #expect(ShardSpec("5/4") == nil)
        #expect(ShardSpec("x") == nil)
    }

    @Test func pngChunkInsertionKeepsAValidPNG() throws {
        let png = try #require(PNGChunks.inserting(text: [("Thumb::URI", "file:///a"), ("Thumb::MTime", "1")],
                                                   into: PNGChunks.emptyImage))
        #expect(PNGChunks.isComplete(png))
        #expect(PNGChunks.textChunks(png) == ["Thumb::URI": "file:///a", "Thumb::MTime": "1"])
        // Replacing a key keeps one copy of it.
        let again = try #require(PNGChunks.inserting(text: [("Thumb::URI", "file:///b")], into: png))
        #expect(PNGChunks.textChunks(again)?["Thumb::URI"] == "file:///b")
        #expect(PNGChunks.isComplete(again))
        var truncated = again
        truncated.removeLast(5)
        #expect(!PNGChunks.isComplete(truncated))
        let header = try #require(PNGChunks.header(png))
        #expect(header.bitDepth == 8 && header.colorType == 6 && header.interlace == 0)
    }
}
