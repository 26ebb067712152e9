import QuireRender
import QuireTestSupport
import QuireTypes
import Testing

/// poppler's process-wide parameters (font and encoding tables) are shared by poppler-glib
/// (``PDFDocument``, ``Renderer``) and libpoppler-cpp (``SplashPDFDocument``) and belong to a
/// count of open documents: when the last document closed, poppler destroyed them and the next
/// document rebuilt them. The Splash shim now holds them for the life of the process. Each test
/// runs in a child process, where nothing has loaded the shim before.
@Suite struct PopplerParamsTests {
    /// After documents of both libraries are opened and closed, the parameters are still held.
    /// Without the shim's process-lifetime document, poppler lets its data directory be changed
    /// again (the sign that nothing holds them) and this fails.
    @Test func parametersOutliveEveryDocument() async {
        await #expect(processExitsWith: .success) {
            let path = Samples.path("document.pdf")
            for _ in 0..<3 {
                guard SplashPDFDocument.info(of: try InputFile(path: DocumentPath(path))) != nil else {
                    throw Failure("Splash could not read \(path)")
                }
                _ = try PDFDocument(file: try InputFile(path: DocumentPath(path))).info
            }
            guard SplashPDFDocument.holdsPopplerParameters else { throw Failure("poppler's parameters were released") }
        }
    }

    /// A poppler-glib document opened first (as the viewer keeps its file open), then info cards
    /// and Splash thumbnails through libpoppler-cpp, then the poppler-glib document draws its
    /// text exactly as a document opened afresh does.
    @Test func aPopplerGlibDocumentOutlivesSplashOpensAndCloses() async {
        await #expect(processExitsWith: .success) {
            let path = Samples.path("document.pdf")
            let pdf = ContentType(mimeType: "application/pdf")
            let glib = try Renderer(file: try InputFile(path: DocumentPath(path)), contentType: pdf)
            for _ in 0..<3 {
                let info = SplashPDFDocument.info(of: try InputFile(path: DocumentPath(path)))
                guard info?.pageCount == glib.pageCount else { throw Failure("Splash info: \(String(describing: info))") }
                _ = try SplashPDFDocument(file: try InputFile(path: DocumentPath(path))).render(size: .longestSide(96))
            }
            let drawn = try glib.render(page: 0, size: .longestSide(256))
            let fresh = try Renderer(file: try InputFile(path: DocumentPath(path)), contentType: pdf)
                .render(page: 0, size: .longestSide(256))
            let dark = stride(from: 0, to: drawn.pixels.count, by: 4).filter { drawn.pixels[$0] < 128 }.count
            guard dark > 50 else { throw Failure("no text drawn (\(dark) dark pixels)") }
            guard drawn.pixels == fresh.pixels else { throw Failure("the kept document draws differently") }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
