// libFuzzer target: opening a document from bytes — type detection on an open file, the info
// card (PDF metadata through poppler, image headers through gdk-pixbuf, a font's faces and
// tables, an archive's listing), and PDF / image opening
// forced on whatever the bytes are.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
#if canImport(Glibc)
import FuzzDriver
import Glibc
#endif
import Quire

/// File-name extensions the first input byte chooses from (so name-based detection is fuzzed too).
let extensions = ["", ".pdf", ".png", ".jpg", ".gif", ".svg", ".txt", ".odt", ".epub", ".cbz", ".ps",
                  ".tiff", ".bmp", ".webp", ".ico", ".docx", ".ttf", ".woff", ".zip", ".tar.gz"]

/// A private directory for the input file: RAM-backed /dev/shm when there is one.
let scratch: String = {
    var template = Array((access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp").utf8CString.dropLast())
        + Array("/quire-fuzz-open-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let made = mkdtemp(buffer.baseAddress!) else { fatalError("mkdtemp failed") }
        return String(cString: made)
    }
}()

/// Writes `content` to a fresh file named with the chosen extension; returns its path.
func writeInput(_ bytes: [UInt8]) -> String {
    let choice = bytes.first.map { Int($0) % extensions.count } ?? 0
    let path = scratch + "/input" + extensions[choice]
    let content = bytes.dropFirst()
    unlink(path)
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    content.withContiguousStorageIfAvailable { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            precondition(written > 0, "write failed")
            offset += written
        }
    }
    close(fd)
    return path
}

func fuzzOne(_ bytes: [UInt8]) {
    let path = writeInput(bytes)
    defer { unlink(path) }
    guard let document = try? Document(path: DocumentPath(path)) else { return }
    precondition(!document.contentType.mimeType.isEmpty)
    if let info = try? document.info() {
        precondition(info.size == Int64(bytes.count - 1))
        if let image = info.image { precondition(image.width > 0 && image.height > 0) }
        if let pages = info.pdf?.pageCount { precondition(pages >= 0) }
        // Fonts: fontconfig's faces plus the name/maxp tables read with bounds; archives: the
        // libarchive listing, bounded.
        if let faces = info.fontFaces { precondition(!faces.isEmpty && faces.count <= 256) }
        if let archive = info.archive { precondition(archive.entries.count <= ArchiveListing.maximumEntries) }
    }
    // Whatever the detected type: the PDF parser and the image header probe on the same bytes.
    if let pdf = try? PDFDocument(file: document.file, password: bytes.count % 2 == 0 ? nil : "fuzz") {
        _ = pdf.info
    }
    _ = ImageProbe.info(of: document.file)
}

#if FUZZING
@_cdecl("fuzz_open_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct OpenReplay {
    static func main() throws {
        defer { rmdir(scratch) }
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
