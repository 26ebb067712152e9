#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import QuireTestSupport

/// Outputs as `cp` and `install` treat them (issue 41, item 5): `thumbnail IN OUT`,
/// `preview -o` and `print --output` follow a symbolic link, write to a device or FIFO without
/// replacing it, refuse a directory or the input itself before touching anything, and take `-`
/// for standard output.
@Suite("outputs: links, devices, FIFOs, directories, the input itself, -")
struct OutputTargetTests {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private func kind(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// The commands that write one output file, for `input` to `output`.
    private func writers(_ input: String, _ output: String) -> [(String, [String])] {
        [("thumbnail", ["thumbnail", "-s", "64", input, output]),
         ("preview -o", ["preview", "--width", "64", "-o", output, input]),
         ("print --output", ["print", "--output", output, input])]
    }

    @Test func aSymbolicLinkIsFollowedAndKept() throws {
        let dir = TemporaryDirectory()
        let pdf = dir.file("doc.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        for (label, arguments) in writers(pdf, dir.file("link")) {
            let target = dir.file("target-\(label.prefix(5))")
            try? FileManager.default.removeItem(atPath: dir.file("link"))
            try Data("old".utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: target)
            let result = QuireBinary.run(arguments)
            #expect(result.status == 0, "\(label): \(result.standardError)")
            #expect(kind(dir.file("link")) == S_IFLNK, "\(label) replaced the link")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("link")) == target)
            let written = bytes(target) ?? []
            #expect(written != Array("old".utf8) && written.count > 8, "\(label) did not write through the link")
        }
        // A link to a name that does not exist yet: the file is created there, the link kept.
        try? FileManager.default.removeItem(atPath: dir.file("link"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("link"), withDestinationPath: "new.png")
        let result = QuireBinary.run(["thumbnail", "-s", "64", pdf, dir.file("link")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(kind(dir.file("link")) == S_IFLNK)
        #expect(bytes(dir.file("new.png")).map { Array($0.prefix(8)) } == Self.pngSignature)
    }

    @Test func aFIFOIsWrittenToNotReplaced() throws {
        let dir = TemporaryDirectory()
        let pdf = dir.file("doc.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        for (label, arguments) in writers(pdf, dir.file("fifo")) {
            try? FileManager.default.removeItem(atPath: dir.file("fifo"))
            #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
            // The reader, as a pipeline's next command would be: it gets everything written.
            let reader = FIFOReader(path: dir.file("fifo"))
            let result = QuireBinary.run(arguments, timeout: 60)
            let received = reader.finish()
            #expect(result.status == 0, "\(label): \(result.standardError)")
            #expect(!result.timedOut, "\(label) hung")
            #expect(kind(dir.file("fifo")) == S_IFIFO, "\(label) replaced the FIFO")
            let signature: [UInt8] = label == "print --output" ? Array("%PDF".utf8) : Array(Self.pngSignature.prefix(4))
            #expect(Array(received.prefix(4)) == signature, "\(label) sent \(received.count) bytes")
            #expect(!FileManager.default.fileExists(atPath: dir.file(".quire-tmp")), "\(label)")
        }
    }

    @Test func aCharacterDeviceIsWrittenToNotReplaced() throws {
        let dir = TemporaryDirectory()
        let pdf = dir.file("doc.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        for (label, arguments) in writers(pdf, "/dev/null") {
            let result = QuireBinary.run(arguments)
            #expect(result.status == 0, "\(label): \(result.standardError)")
            // Still the system's null device: a character device with its own numbers (1, 3).
            var info = stat()
            #expect(stat("/dev/null", &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFCHR, "\(label) replaced /dev/null")
            #expect(info.st_rdev == (1 << 8 | 3), "\(label): /dev/null is no longer 1:3")
        }
    }

    @Test func aDirectoryIsRefusedWithNothingTouched() throws {
        let dir = TemporaryDirectory()
        let pdf = dir.file("doc.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let folder = dir.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (label, arguments) in writers(pdf, folder) {
            let result = QuireBinary.run(arguments)
            #expect(result.status == 73, "\(label): \(result.status) \(result.standardError)")
            #expect(result.errorLines.count == 1, "\(label): \(result.standardError)")
            #expect(result.standardError.contains("is a directory"), "\(label): \(result.standardError)")
            #expect(kind(folder) == S_IFDIR)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "\(label)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["doc.pdf", "folder"], "\(label)")
        }
    }

    @Test func theInputItselfIsRefusedAndKept() throws {
        let dir = TemporaryDirectory()
        let pdf = dir.file("doc.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let notes = dir.file("notes.txt")
        try Data("my notes\nline two\n".utf8).write(to: URL(fileURLWithPath: notes))
        try FileManager.default.createSymbolicLink(atPath: dir.file("alias.pdf"), withDestinationPath: pdf)
        let original = bytes(pdf)
        var cases = writers(pdf, pdf) + writers(pdf, dir.file("alias.pdf"))
        cases.append(("print --output notes", ["print", "--output", notes, notes]))
        cases.append(("print --preview", ["print", "--preview", pdf, pdf]))
        for (label, arguments) in cases {
            let result = QuireBinary.run(arguments)
            #expect(result.status == 64, "\(label): \(result.status) \(result.standardError)")
            #expect(result.errorLines.count == 1, "\(label): \(result.standardError)")
            #expect(result.standardError.contains("is the input file"), "\(label): \(result.standardError)")
        }
        #expect(bytes(pdf) == original)
        #expect(bytes(notes) == Array("my notes\nline two\n".utf8))
        #expect(kind(dir.file("alias.pdf")) == S_IFLNK)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["alias.pdf", "doc.pdf", "notes.txt"])
    }

    @Test func dashIsStandardOutput() throws {
        let dir = TemporaryDirectory()
        let pdf = dir.file("doc.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let runs: [(String, [String], [UInt8])] = [
            ("thumbnail", ["thumbnail", "-s", "64", pdf, "-"], Array(Self.pngSignature)),
            ("preview -o -", ["preview", "--width", "64", "-o", "-", pdf], Array(Self.pngSignature)),
            ("preview --format pdf -o -", ["preview", "--format", "pdf", "-o", "-", pdf], Array("%PDF-".utf8)),
            ("print --output -", ["print", "--output", "-", pdf], Array("%PDF-".utf8)),
        ]
        for (label, arguments, signature) in runs {
            let result = ProcessRunner.run([QuireBinary.path] + arguments, workingDirectory: dir.path)
            #expect(result.status == 0, "\(label): \(result.standardError)")
            #expect(Array(result.standardOutput.prefix(signature.count)) == signature, "\(label)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("-")), "\(label) created a file named -")
        }
        // print says what it wrote on standard error, keeping standard output the PDF alone.
        let printed = ProcessRunner.run([QuireBinary.path, "print", "--output", "-", pdf], workingDirectory: dir.path)
        #expect(printed.standardError.contains("wrote -"))
        #expect(printed.standardOutputText.hasSuffix("%%EOF\n") || printed.standardOutputText.hasSuffix("%%EOF"))
    }
}

/// Reads a FIFO to its end on a thread of its own.
final class FIFOReader: @unchecked Sendable {
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var data: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
    }
    private let box = Box()
    private let path: String

    init(path: String) {
        self.path = path
        let box = self.box
        let thread = Thread {
            let fd = open(path, O_RDONLY)
            var collected: [UInt8] = []
            if fd >= 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(fd, &buffer, buffer.count)
                    if count <= 0 { break }
                    collected += buffer[..<count]
                }
                close(fd)
            }
            box.lock.lock(); box.data = collected; box.lock.unlock()
            box.done.signal()
        }
        thread.start()
    }

    /// Everything read, once the writer closed the FIFO (at most 30 s; then the reader is
    /// released by opening and closing the write end once).
    func finish() -> [UInt8] {
        if box.done.wait(timeout: .now() + 30) == .timedOut {
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            _ = box.done.wait(timeout: .now() + 5)
        }
        box.lock.lock(); defer { box.lock.unlock() }
        return box.data
    }
}
