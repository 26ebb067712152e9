import FoundationEssentials

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

    /// The info card: file facts, plus PDF metadata or image dimensions where they apply.
    ///
    /// For a PDF that needs a password and none (or a wrong one) is given, this does not throw:
    /// the card says the document is password-protected and ``DocumentInfo/problem`` holds the
    /// error. Damaged content throws ``DocumentError``.
    ///
    /// - Parameter renderer: this document already opened for rendering (``renderer(password:)``
    ///   with the same password), if the caller has it: a PDF's metadata is then read from the
    ///   open document instead of opening the file a second time (and loading poppler's Splash
    ///   front-end beside the cairo one).
    /// - Parameter showLocation: a photo's GPS position is read and given (`info
    ///   --show-location`); without it only that the photo records one.
    public func info(password: String? = nil, renderer: Renderer? = nil, showLocation: Bool = false) throws(DocumentError) -> DocumentInfo {
        var pdf: PDFInfo?
        var image: ImageInfo?
        var fontFaces: [FontFace]?
        var archive: ArchiveListing?
        var media: MediaInfo?
        var table: TableInfo?
        var database: DatabaseSummary?
        var json: JSONSummary?
        var markdown: MarkdownText?
        var notebook: NotebookText.Summary?
        var comicBook: ComicBookSummary?
        var ebook: EbookSummary?
        var djvu: DjVuSummary?
        var mail: MailSummary?
        var photo: PhotoDetails?
        var animation: AnimationInfo?
        var problem: DocumentError?
        switch contentType.family {
        case .pdf:
            if let facts = renderer?.pdfInfo {
                pdf = facts
                if password != nil { pdf?.isEncrypted = true; pdf?.isPasswordProtected = true }
                break
            }
            // poppler's parameters, built once and held for the process (see prepare()).
            SplashPDFDocument.prepare()
            if password == nil, let facts = SplashPDFDocument.info(of: file) {
                pdf = facts
                break
            }
            do {
                let document = try PDFDocument(file: file, password: password)
                pdf = document.info
                if password != nil { pdf?.isEncrypted = true; pdf?.isPasswordProtected = true }
            } catch where error.kind == .passwordRequired {
                pdf = .locked
                problem = error
            }
        case .officeDocument where OfficeInstallation.isInstalled, .text where isSpreadsheetText:
            // Pages, page size, title and author of the document as LibreOffice lays it out
            // (from the PDF it makes: the same pages every viewer shows and Print sends).
            do throws(DocumentError) {
                let opened: Renderer
                if let renderer { opened = renderer } else { opened = try self.renderer(password: password) }
                if var facts = opened.pdfInfo {
                    facts.producer = nil
                    facts.creator = nil
                    facts.version = nil
                    facts.creationDate = nil
                    facts.modificationDate = nil
                    facts.isEncrypted = password != nil
                    facts.isPasswordProtected = password != nil
                    pdf = facts
                }
            } catch where error.kind == .passwordRequired {
                pdf = .locked
                problem = error
            }
        case .text where DelimitedTable.applies(to: contentType, path: path):
            // Quire's own table: rows counted for a moment (else "about"), columns typed.
            table = TableInfo(try DelimitedTable(file: file, tabSeparated: contentType.conforms(to: "text/tab-separated-values")))
        case .image where PhotoDetails.isCameraRaw(contentType):
            photo = try PhotoDetails.ofCameraRaw(file, includingLocation: showLocation)
        case .image:
            if ImageProbe.canRead(contentType) {
                guard let probed = ImageProbe.info(of: file) else {
                    throw DocumentError(kind: .damaged, path: path,
                                        reason: "not a readable image (\(contentType.localizedDescription))")
                }
                image = probed
            }
            photo = PhotoDetails.ofPhoto(file, includingLocation: showLocation)
            animation = AnimationInfo.read(file)
        case .font:
            fontFaces = try FontFace.faces(in: file, limits: limits)
        case .archive:
            archive = try ArchiveListing.read(file)
        case .video, .audio:
            media = try MediaFacts.read(file, interpreters: interpreters)
        case .database:
            database = try DatabaseSummary.read(file)
        case .json:
            json = try JSONSummary.read(file).0
        case .markdown:
            markdown = try MarkdownText.read(file)
        case .notebook:
            notebook = try NotebookText.read(file).summary
        case .comicBook:
            comicBook = try ComicBookSummary.read(file, limits: limits)
        case .ebook:
            // A DRM-protected book is still an EPUB book: its card, then why it is not shown
            // (as an encrypted PDF's card says it needs a password).
            do throws(DocumentError) {
                ebook = try EbookSummary.read(file, limits: limits)
            } catch where error.kind == .unsupported {
                problem = error
            }
        case .djvu:
            djvu = try DjVuSummary.read(file, limits: limits)
        case .mail:
            mail = try MailSummary.read(file, mimeType: contentType.mimeType, limits: limits)
        case .text where JSONSummary.isJSONLines(name: path.lastComponentBytes):
            json = try JSONSummary.read(file, lines: true).0
        default:
            break
        }
        // Print's content answer is the one `actions` starts from (a conversion the converter
        // cannot do is no); whether a printer accepts it is ``DocumentInteraction``'s to ask.
        var capabilities = capabilities
        capabilities.print = DocumentInteraction.printCapability(capabilities.print, of: self, conversion: .standard)
        var info = DocumentInfo(
            path: path, contentType: contentType, size: file.size,
            modified: file.modificationTime, capabilities: capabilities,
            pdf: pdf, image: image, problem: problem)
        info.fontFaces = fontFaces
        info.archive = archive
        info.media = media
        info.table = table
        info.database = database
        info.json = json
        info.markdown = markdown
        info.notebook = notebook
        info.comicBook = comicBook
        info.ebook = ebook
        info.djvu = djvu
        info.mail = mail
        info.photo = photo
        info.animation = animation
        return info
    }
}
