import QuireSystem
import QuireTypes

/// Converts any renderable document to PDF — what printing needs for text, images and SVG
/// (and what `quire preview --format pdf` writes).
///
/// - Text: A4 pages laid out with Pango (vector text, fonts embedded).
/// - Images: one page the size of the image at 72 dpi (1 pixel = 1 pt), upright; the print
///   system's fit-to-page scales it to paper.
/// - SVG: one vector page at the SVG's size. PDF: the selected pages, vector.
/// - PostScript: 150 dpi rasters. Containers: their preview image.
///
/// ```swift
/// let file = try InputFile(path: DocumentPath("notes.txt"))
/// try PDFExport.write(file, contentType: try ContentType.detect(file), to: DocumentPath("/tmp/notes.pdf"))
/// ```
public enum PDFExport {
    /// The PDF bytes. `pages` are 0-based indices; nil means every page.
    public static func data(_ file: InputFile, contentType: ContentType, pages: [Int]? = nil,
                            password: String? = nil, limits: RenderLimits = .standard,
                            csvAsSpreadsheet: Bool = false, interpreters: Interpreters = .here) throws(DocumentError) -> [UInt8] {
        let renderer = try Renderer(file: file, contentType: contentType, password: password, limits: limits,
                                    csvAsSpreadsheet: csvAsSpreadsheet, interpreters: interpreters)
        return try renderer.pdfData(pages: pages)
    }

    /// Writes the PDF to an open descriptor as it is produced (not closed afterwards).
    public static func write(_ file: InputFile, contentType: ContentType, pages: [Int]? = nil,
                             password: String? = nil, limits: RenderLimits = .standard, interpreters: Interpreters = .here,
                             to descriptor: FileDescriptor) throws(DocumentError) {
        let renderer = try Renderer(file: file, contentType: contentType, password: password, limits: limits,
                                    interpreters: interpreters)
        try renderer.writePDF(pages: pages, to: descriptor)
    }

    /// Writes the PDF to `output` atomically (temporary file beside it, then rename; nothing is
    /// left behind on failure).
    /// - Throws: ``DocumentError`` when the input cannot be rendered, ``OutputError`` when the
    ///   output cannot be written.
    public static func write(_ file: InputFile, contentType: ContentType, pages: [Int]? = nil,
                             password: String? = nil, limits: RenderLimits = .standard, interpreters: Interpreters = .here,
                             to output: DocumentPath, permissions: FilePermissions? = nil) throws {
        let renderer = try Renderer(file: file, contentType: contentType, password: password, limits: limits,
                                    interpreters: interpreters)
        let out = try OutputFile(path: output, permissions: permissions)
        do {
            try renderer.writePDF(pages: pages, to: out.descriptor)
        } catch where error.kind == .input {
            throw OutputError(path: output, reason: error.reason)
        }
        try out.commit()
    }
}
