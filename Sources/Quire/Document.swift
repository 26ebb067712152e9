import FoundationEssentials
import QuireRenderService

/// A file as Quire sees it: opened read-only, its content type detected, and the actions Quire
/// can perform on it.
///
/// ```swift
/// let document = try Document(url: URL(fileURLWithPath: "report.pdf"))
/// print(document.contentType.localizedDescription)   // "PDF document"
/// let info = try document.info()
/// print(info.pdf?.pageCount ?? 0)
/// ```
///
/// Opening refuses anything that is not a regular, readable file (directories, FIFOs, devices,
/// symlink loops) with an ``InputError`` and never blocks on such files. An empty file is refused
/// too unless `allowEmpty` is set (as `quire info` does): it is then typed by its name, its
/// family is ``DocumentFamily/empty`` and it cannot be previewed, thumbnailed or printed.
/// The file stays open (read-only) for the life of the `Document`, so later reads see the file
/// that was checked.
public final class Document: Sendable {
    /// The open file.
    public let file: InputFile
    /// The detected content type (name + content sniffing through shared-mime-info).
    public let contentType: ContentType
    /// The limits used when this document is rendered, thumbnailed or converted.
    public let limits: RenderLimits

    /// Opens the file at `url` (a `file:` URL).
    public convenience init(url: URL) throws(InputError) {
        try self.init(path: DocumentPath(url: url))
    }

    /// Opens the file at `path`. Paths are bytes: any file name, including invalid UTF-8, works.
    /// - Parameters:
    ///   - maximumFileSize: larger files are refused (``Limit/fileSize``).
    ///   - limits: the limits for rendering, thumbnails and conversion of this document.
    ///   - allowEmpty: accept a 0-byte file (typed by its name) instead of refusing it.
    public init(path: DocumentPath, maximumFileSize: Int64 = InputFile.defaultMaximumSize,
                limits: RenderLimits = .standard, allowEmpty: Bool = false,
                csvAsSpreadsheet: Bool = false, interpreters: Interpreters = .here) throws(InputError) {
        file = try InputFile(path: path, allowEmpty: allowEmpty, maximumSize: maximumFileSize)
        contentType = try ContentType.detect(file)
        self.limits = limits
        self.csvAsSpreadsheet = csvAsSpreadsheet
        self.interpreters = interpreters
    }

    /// A document whose type is already known (a render worker sniffed it): nothing is read.
    public init(file: InputFile, contentType: ContentType, limits: RenderLimits = .standard,
                csvAsSpreadsheet: Bool = false, interpreters: Interpreters = .here) {
        self.file = file
        self.contentType = contentType
        self.limits = limits
        self.csvAsSpreadsheet = csvAsSpreadsheet
        self.interpreters = interpreters
    }

    /// Where LibreOffice, GStreamer and Ghostscript run for this document: here (the default),
    /// or in a sandboxed render worker (`quire`'s one-shot commands).
    public let interpreters: Interpreters

    /// A CSV or TSV file is laid out by LibreOffice Calc (its printed pages) instead of shown
    /// as text (`--csv-as-spreadsheet`); other types ignore it.
    public let csvAsSpreadsheet: Bool

    /// Whether this document is delimited text to be laid out as a spreadsheet.
    public var isSpreadsheetText: Bool { csvAsSpreadsheet && SpreadsheetText.applies(to: contentType) }

    /// The path the document was opened from.
    public var path: DocumentPath { file.path }

    /// What Quire can do with this document, with the reason for anything it cannot do.
    /// Office files without LibreOffice: only a preview image inside can be shown, so Preview
    /// and Thumbnail say whether this file carries one.
    public var capabilities: Capabilities {
        var result = SupportedTypes.capabilities(of: contentType)
        if contentType.family == .officeDocument, !OfficeInstallation.isInstalled, result.preview.isSupported {
            if EmbeddedPreview.isPresent(in: file, contentType: contentType, limits: limits) {
                // Shown, but only as the picture the producing application left in the file.
                result.preview = .limited(note: "the preview image inside the file; install LibreOffice (\(OfficeInstallation.packageHint)) for every page")
            } else {
                let reason = "the file carries no preview image; install LibreOffice (\(OfficeInstallation.packageHint)) for every page"
                result.preview = .unsupported(reason: reason)
                result.thumbnail = .unsupported(reason: reason)
            }
        }
        // A DRM-protected book's text cannot be shown or printed (its cover may still be its
        // thumbnail: covers are not encrypted).
        if contentType.family == .ebook, let reason = EbookSummary.protection(of: file, limits: limits) {
            result.preview = .unsupported(reason: reason)
            result.print = .unsupported(reason: reason)
        }
        return result
    }

    /// The info card: file facts, plus what the render service reads of the content (a PDF's
    /// metadata, an image's pixels, an archive's entries…: ``DocumentInfo/Content``), in this
    /// process through the same request a worker answers (``renderService(software:)``).
    ///
    /// For a PDF that needs a password and none (or a wrong one) is given, this does not throw:
    /// the card says the document is password-protected and ``DocumentInfo/Content/problem``
    /// holds the error. Damaged content throws ``DocumentError``.
    ///
    /// - Parameter showLocation: a photo's GPS position is read and given (`info
    ///   --show-location`); without it only that the photo records one.
    public func info(password: String? = nil, showLocation: Bool = false) throws(DocumentError) -> DocumentInfo {
        let service = renderService()
        defer { service.stop() }
        let content: DocumentInfo.Content
        do throws(RenderProblem) {
            content = try service.info(renderRequest(password: password), showLocation: showLocation)
        } catch {
            throw self.error(from: error)
        }
        // Print's content answer is the one `actions` starts from (a conversion the converter
        // cannot do is no); whether a printer accepts it is ``DocumentInteraction``'s to ask.
        var capabilities = capabilities
        capabilities.print = DocumentInteraction.printCapability(capabilities.print, of: self, conversion: .standard)
        return DocumentInfo(path: path, contentType: contentType, size: file.size, modified: file.modificationTime,
                            capabilities: capabilities, content: content)
    }
}
