import QuireTypes

/// Office documents (Word, Excel, PowerPoint, OpenDocument, RTF, Apple iWork) page by page:
/// the process's warm LibreOffice (``OfficeKit``) lays the document out and exports it as PDF
/// into its private directory, and the pages, their sizes, text, title and author come from
/// that PDF through the PDF engine (poppler) — so the viewers, `preview`, thumbnails, `info` and
/// Print see an office file as the PDF LibreOffice makes of it. Spreadsheets give each sheet's
/// printed pages, presentations one slide per page.
///
/// Without LibreOffice, and for a file LibreOffice cannot import (some iWork files), the engine
/// falls back to the preview image zip-based files may carry (``RenderEngine/containerPreview``).
enum OfficeEngine {
    static func open(_ input: RenderEngine.Input) throws(DocumentError) -> RenderEngine.Opened {
        guard OfficeInstallation.isInstalled else {
            return try RenderEngine.containerPreview.open(input)
        }
        let pdf: InputFile
        do {
            pdf = try OfficeKit.withOffice(input.file.path) { (office) throws(DocumentError) in
                try office.convertToPDF(input.file, password: input.password)
            }
        } catch {
            // LibreOffice cannot import every iWork file; their preview image is better than nothing.
            if error.kind == .damaged, DocumentFamily.carriesPreviewImage(input.contentType.mimeType),
               let fallback = try? RenderEngine.containerPreview.open(input) {
                return fallback
            }
            throw error
        }
        let source: PDFPageSource
        do {
            source = try PDFPageSource(file: pdf, password: nil, displayPath: input.file.path)
        } catch {
            throw DocumentError(kind: .damaged, path: input.file.path, reason: "LibreOffice's PDF of it is unreadable (\(error.reason))")
        }
        return RenderEngine.Opened(source: source)
    }
}

extension RenderEngine {
    /// Office documents through LibreOfficeKit (every page), else their embedded preview image.
    static let office = RenderEngine(name: "office", families: [.officeDocument]) { (input) throws(DocumentError) in
        try OfficeEngine.open(input)
    }
}
