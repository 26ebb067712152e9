// libFuzzer target: thumbnail rendering from bytes — the detected family's renderer at 128 px,
// then the PDF, raster image, SVG and container (ODF/EPUB/CBZ zip) renderers forced on the same
// bytes, and PNG encoding of every thumbnail. Limits are small so one input stays cheap.
// PostScript is skipped: it runs Ghostscript, a separate interpreter with its own time limits.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
#if canImport(Glibc)
import FuzzDriver
import Glibc
#endif
import Quire
import QuireThumbnails
import QuireRenderService

/// A private directory for the input file: RAM-backed /dev/shm when there is one.
let scratch: String = {
    var template = Array((access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp").utf8CString.dropLast())
        + Array("/quire-fuzz-thumbnail-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let made = mkdtemp(buffer.baseAddress!) else { fatalError("mkdtemp failed") }
        return String(cString: made)
    }
}()

/// Per-input limits: small enough that no input can ask for much memory or time.
let limits = RenderLimits(maximumImagePixels: 4_000_000, maximumArchiveEntries: 200,
                          maximumInflatedBytes: 4 << 20, maximumTextBytes: 64 << 10,
                          maximumSVGBytes: 1 << 20, maximumOutputPixels: 1_000_000)

/// Types forced on every input, whatever it is.
let forced = ["application/pdf", "image/png", "image/svg+xml", "application/vnd.oasis.opendocument.text",
              "application/epub+zip", "application/vnd.comicbook+zip"].map { ContentType(mimeType: $0) }

func writeInput(_ bytes: [UInt8]) -> String {
    let path = scratch + "/input"
    unlink(path)
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "cannot create \(path)")
    bytes.withUnsafeBufferPointer { buffer in
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

/// PDFs go the way `quire thumbnail`, the batch and the thumbnail service take them
/// (QuireThumbnails' RendererThumbnailSource: scanned-page fast path, PageBackendProbe → poppler
/// Splash for pages cairo is slow on, else cairo), not straight to cairo: a type 1 shading over a
/// huge domain (Samples/generated/shading-function.pdf) takes cairo minutes by design
/// (docs/notes/batch.md), which a worker's timeout, not the fuzzer, is there to stop.
let production = RendererThumbnailSource(limits: limits)

func thumbnail(_ file: InputFile, _ type: ContentType) {
    guard type.family != .postscript, type.family != .other, type.family != .empty else { return }
    if type.family == .pdf {
        guard let rendered = try? production.renderThumbnails(of: file, type: type, sizes: [128]) else { return }
        for png in rendered.pngBySize.values { precondition(png.starts(with: [0x89, 0x50, 0x4E, 0x47])) }
        return
    }
    guard let drawn = try? Thumbnail.firstPage(file, contentType: type, sizes: [128], limits: limits, interpreters: .here),
          let image = drawn.images[128] else { return }
    precondition(image.width >= 1 && image.height >= 1)
    precondition(max(image.width, image.height) <= 128, "\(type): \(image.width)×\(image.height) exceeds 128")
    precondition(image.pixels.count == image.width * image.height * 4)
    let png = try? PNGEncoder.encode(image)
    precondition(png.map { $0.starts(with: [0x89, 0x50, 0x4E, 0x47]) } ?? true)
}

func fuzzOne(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    let path = writeInput(bytes)
    defer { unlink(path) }
    guard let file = try? InputFile(path: DocumentPath("/proc/self/fd/" + String(openDescriptor(path)))) else {
        return
    }
    let detected = (try? ContentType.detect(file)) ?? ContentType(mimeType: "application/octet-stream")
    thumbnail(file, detected)
    for type in forced where type.family != detected.family || type.mimeType != detected.mimeType {
        thumbnail(file, type)
    }
}

/// Opens `path` and keeps the descriptor until the next input (InputFile reopens it through
/// /proc/self/fd, as a caller handing Quire an already-open file would).
nonisolated(unsafe) var heldDescriptor: Int32 = -1
func openDescriptor(_ path: String) -> Int32 {
    if heldDescriptor >= 0 { close(heldDescriptor) }
    heldDescriptor = open(path, O_RDONLY | O_CLOEXEC)
    return heldDescriptor
}

#if FUZZING
@_cdecl("fuzz_thumbnail_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct ThumbnailReplay {
    static func main() throws {
        defer { rmdir(scratch) }
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
