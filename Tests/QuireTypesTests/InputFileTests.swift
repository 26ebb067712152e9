#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import QuireTypes
import Testing

@Suite("Opening input files")
struct InputFileTests {
    func openError(_ path: String) -> InputError? {
        do {
            _ = try InputFile(path: DocumentPath(path))
            return nil
        } catch {
            return error
        }
    }

    @Test func regularFileOpensWithSizeAndTime() throws {
        let file = try InputFile(path: DocumentPath(Samples.path("notes.txt")))
        var info = stat()
        #expect(stat(Samples.path("notes.txt"), &info) == 0)
        #expect(file.size == Int64(info.st_size))
        #expect(file.modificationTime.seconds == Int64(info.st_mtim.tv_sec))
        let head = try file.read(upTo: 7)
        #expect(String(decoding: head, as: UTF8.self) == "Note 1:")
        // The descriptor is read-only.
        #expect(fcntl(file.descriptor.rawValue, F_GETFL) & O_ACCMODE == O_RDONLY)
    }

    /// Chunked reads of 1 MiB on a small file return what is there (the buffer is sized from the
    /// file, not the chunk), and a file that grew after it was opened is read to its new end.
    @Test func readsSizedByTheFileAndFollowingGrowth() throws {
        let scratch = TemporaryDirectory()
        let path = scratch.file("growing")
        let first = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(first).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: DocumentPath(path))
        #expect(try file.read(upTo: 1 << 20) == first)
        #expect(try file.read(upTo: 1 << 20, at: 4990) == Array(first[4990...]))
        #expect(try file.read(upTo: 1 << 20, at: 6000) == [])
        #expect(try file.read(upTo: 3, at: 10) == Array(first[10..<13]))
        let more = (0..<20000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(more))
        try handle.close()
        #expect(file.size == 5000)
        #expect(try file.read(upTo: 1 << 20) == first + more)
        #expect(try file.read(upTo: 6000, at: 4000) == Array((first + more)[4000..<10000]))
    }

    @Test func missingFile() {
        #expect(openError("/nonexistent/quire-\(UUID())")?.kind == .notFound)
    }

    @Test func directory() {
        #expect(openError("/tmp")?.kind == .isDirectory)
    }

    @Test func characterDeviceIsRefusedWithoutReading() {
        let start = Date()
        #expect(openError("/dev/zero")?.kind == .isCharacterDevice)
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func fifoDoesNotBlock() throws {
        let dir = TemporaryDirectory()
        let fifo = dir.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let start = Date()
        #expect(openError(fifo)?.kind == .isFIFO)
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test func emptyFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("empty.pdf")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let error = openError(path)
        #expect(error?.kind == .empty)
        #expect(error?.description == "\(path): file is empty (0 bytes)")
        #expect(try InputFile(path: DocumentPath(path), allowEmpty: true).size == 0)
    }

    @Test func symlinkLoop() throws {
        let dir = TemporaryDirectory()
        #expect(symlink(dir.file("b"), dir.file("a")) == 0)
        #expect(symlink(dir.file("a"), dir.file("b")) == 0)
        #expect(openError(dir.file("a"))?.kind == .symlinkLoop)
    }

    @Test func symlinkToRegularFileOpens() throws {
        let dir = TemporaryDirectory()
        #expect(symlink(Samples.path("document.pdf"), dir.file("link.pdf")) == 0)
        #expect(try InputFile(path: DocumentPath(dir.file("link.pdf"))).size > 0)
    }

    @Test func sizeLimit() throws {
        #expect(openError(Samples.path("document.pdf")) == nil)
        do {
            _ = try InputFile(path: DocumentPath(Samples.path("document.pdf")), maximumSize: 100)
            Issue.record("expected a size error")
        } catch {
            #expect(error.kind == .tooLarge)
        }
    }

    @Test("names that are not UTF-8 open by their bytes")
    func invalidUTF8Name() throws {
        let dir = TemporaryDirectory()
        let bytes = Array(dir.path.utf8) + Array("/bad-\u{0}".utf8).dropLast() + [0xFF, 0xFE] + Array(".txt".utf8)
        let path = DocumentPath(bytes: bytes)
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT, 0o600) }
        #expect(fd >= 0)
        _ = write(fd, "hello\n", 6)
        close(fd)
        let file = try InputFile(path: path)
        #expect(file.size == 6)
        #expect(path.displayName == "bad-\\xFF\\xFE.txt")
    }

    @Test func displayEscapesControlCharacters() {
        let path = DocumentPath("dir/a\nb\tc\u{7}.pdf")
        #expect(path.description == "dir/a\\nb\\tc\\x07.pdf")
        #expect(path.displayName == "a\\nb\\tc\\x07.pdf")
        #expect(DocumentPath("spaces in name.pdf").description == "spaces in name.pdf")
        #expect(DocumentPath("-leading.pdf").displayName == "-leading.pdf")
    }
}
