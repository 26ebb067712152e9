import QuireRender
import QuireTypes

extension DocumentSession {
    /// What the info card says of the content of the document `request` names
    /// (``RenderRequest/info(_:showLocation:)``): its family's facts, read without drawing.
    ///
    /// A PDF (or office file) that needs a password none or a wrong one was given for is not a
    /// failure: the content says it is locked and carries the problem. Damaged content is.
    /// `showLocation`: a photo's GPS position is read; without it only that the photo records one.
    func info(_ request: DocumentRequest, showLocation: Bool) throws(RenderProblem) -> DocumentInfo.Content {
        let (file, type) = try input(request)
        do throws(DocumentError) {
            return try Self.info(of: file, type: type, request, showLocation: showLocation, limits: limits, interpreters: interpreters)
        } catch {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        }
    }

    private static func info(of file: InputFile, type: ContentType, _ request: DocumentRequest, showLocation: Bool,
                             limits: RenderLimits, interpreters: Interpreters) throws(DocumentError) -> DocumentInfo.Content {
        var content = DocumentInfo.Content()
        let password = request.password
        switch type.family {
        case .pdf:
            // poppler's parameters, built once and held for the process (see prepare()).
            SplashPDFDocument.prepare()
            if password == nil, let facts = SplashPDFDocument.info(of: file) {
                content.pdf = facts
                break
            }
            do {
                let document = try PDFDocument(file: file, password: password)
                content.pdf = document.info
                if password != nil { content.pdf?.isEncrypted = true; content.pdf?.isPasswordProtected = true }
            } catch where error.kind == .passwordRequired {
                content.pdf = .locked
                content.problem = error
            }
        case .officeDocument where OfficeInstallation.isInstalled,
             .text where request.csvAsSpreadsheet && SpreadsheetText.applies(to: type):
            // Pages, page size, title and author of the document as LibreOffice lays it out
            // (from the PDF it makes: the same pages every viewer shows and Print sends).
            do throws(DocumentError) {
                let renderer = try Renderer(file: file, contentType: type, password: password, limits: limits,
                                            csvAsSpreadsheet: request.csvAsSpreadsheet, interpreters: interpreters)
                if var facts = renderer.pdfInfo {
                    facts.producer = nil
                    facts.creator = nil
                    facts.version = nil
                    facts.creationDate = nil
                    facts.modificationDate = nil
                    facts.isEncrypted = password != nil
                    facts.isPasswordProtected = password != nil
                    content.pdf = facts
                }
            } catch where error.kind == .passwordRequired {
                content.pdf = .locked
                content.problem = error
            }
        case .text where DelimitedTable.applies(to: type, path: file.path):
            // Quire's own table: rows counted for a moment (else "about"), columns typed.
            content.table = TableInfo(try DelimitedTable(file: file, tabSeparated: type.conforms(to: "text/tab-separated-values")))
        case .image where PhotoDetails.isCameraRaw(type):
            content.photo = try PhotoDetails.ofCameraRaw(file, includingLocation: showLocation)
        case .image:
            if ImageProbe.canRead(type) {
                guard let probed = ImageProbe.info(of: file) else {
                    throw DocumentError(kind: .damaged, path: file.path,
                                        reason: "not a readable image (\(type.localizedDescription))")
                }
                content.image = probed
            }
            content.photo = PhotoDetails.ofPhoto(file, includingLocation: showLocation)
            content.animation = AnimationInfo.read(file)
        case .font:
            content.fontFaces = try FontFace.faces(in: file, limits: limits)
        case .archive:
            content.archive = try ArchiveListing.read(file)
        case .video, .audio:
            content.media = try MediaFacts.read(file, interpreters: interpreters)
        case .database:
            content.database = try DatabaseSummary.read(file)
        case .json:
            content.json = try JSONSummary.read(file).0
        case .markdown:
            content.markdown = try MarkdownText.read(file)
        case .notebook:
            content.notebook = try NotebookText.read(file).summary
        case .comicBook:
            content.comicBook = try ComicBookSummary.read(file, limits: limits)
        case .ebook:
            // A DRM-protected book is still an EPUB book: its card, then why it is not shown
            // (as an encrypted PDF's card says it needs a password).
            do throws(DocumentError) {
                content.ebook = try EbookSummary.read(file, limits: limits)
            } catch where error.kind == .unsupported {
                content.problem = error
            }
        case .djvu:
            content.djvu = try DjVuSummary.read(file, limits: limits)
        case .mail:
            content.mail = try MailSummary.read(file, mimeType: type.mimeType, limits: limits)
        case .text where JSONSummary.isJSONLines(name: file.path.lastComponentBytes):
            content.json = try JSONSummary.read(file, lines: true).0
        default:
            break
        }
        return content
    }
}
