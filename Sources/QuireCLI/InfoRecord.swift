#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire
import QuireRenderService

/// The `--json` schema of `quire info` (one object per file). Field names are stable; new
/// fields may be added, none removed or renamed.
struct InfoRecord: Encodable {
    struct ErrorRecord: Encodable {
        /// Stable class of error: an input kind (`not-found`, `is-fifo`, …) or a document kind
        /// (`damaged`, `password-required`, …).
        var kind: String
        var message: String
        var errno: Int32?
        var glibDomain: String?
        var glibCode: Int32?

        init(_ error: InputError) {
            kind = error.kind.rawValue
            message = error.hintedReason
            errno = error.errno?.rawValue
            glibDomain = nil
            glibCode = nil
        }

        init(_ error: DocumentError) {
            if let input = error.inputError {
                self = ErrorRecord(input)
                return
            }
            kind = error.kind.rawValue
            message = error.hintedReason
            errno = nil
            glibDomain = error.underlying?.domain
            glibCode = error.underlying?.code
        }

        private init(kind: String, message: String) {
            self.kind = kind
            self.message = message
        }

        /// The file took longer than the per-file time limit (the run ends with it).
        static func timeout(seconds: Int) -> ErrorRecord {
            ErrorRecord(kind: "timeout", message: Watchdog.reason(seconds: seconds))
        }
    }

    struct CapabilityRecord: Encodable {
        let supported: Bool
        /// For print: `direct`, `conversion` or `none`.
        let mode: String?
        let via: String?
        let reason: String?
        /// What a supported action does not do (a preview from the file's own picture only).
        var note: String? = nil
    }

    struct PDFRecord: Encodable {
        let pages: Int?
        let pageWidth: Double?
        let pageHeight: Double?
        let paper: String?
        let title: String?
        let author: String?
        let subject: String?
        let keywords: String?
        let creator: String?
        let producer: String?
        let created: String?
        let modified: String?
        let version: String?
        let encrypted: Bool
        let passwordProtected: Bool
    }

    struct ImageRecord: Encodable {
        let width: Int
        let height: Int
        let format: String?
    }

    let path: String
    let name: String
    let ok: Bool
    var kind: String?
    var mimeType: String?
    var parentTypes: [String]?
    var family: String?
    var iconName: String?
    var genericIconName: String?
    var uncertain: Bool?
    var size: Int64?
    var sizeHuman: String?
    var modified: String?
    var pdf: PDFRecord?
    var image: ImageRecord?
    /// A font file's faces (one, or each of a collection's), as `FontFace` encodes them.
    var fonts: [FontFace]?
    var archive: ArchiveRecord?
    var media: MediaRecord?
    /// A delimited table (CSV, TSV): `rows`, `rowsExact`, `columns` (`name`, `kind`: integer,
    /// decimal, date or text, `width`), `delimiter`, `header`, `encoding`, `cut`.
    var table: TableInfo?
    var database: DatabaseRecord?
    var json: JSONRecord?
    var markdown: MarkdownRecord?
    var notebook: NotebookRecord?
    /// A comic book: `pages`, and `title`, `series`, `number`, `volume`, `writer`, `year` when
    /// its ComicInfo.xml names them.
    var comicBook: ComicBookSummary?
    var ebook: EbookRecord?
    /// A DjVu document: `pages`, the first page's `pageWidth` and `pageHeight` (points) and
    /// `resolution` (dots an inch).
    var djvu: DjVuSummary?
    /// An e-mail message: `subject`, `from`, `to`, `cc`, `date` (as written by the sender's
    /// clock) when present, and `attachments` [{`name`, `mimeType`, `size` (decoded bytes; absent
    /// for an attached message)}].
    var mail: MailSummary?
    /// A photo's shot: `camera`, `lens`, `exposureTime` (seconds), `aperture` (f-number), `iso`,
    /// `focalLength` (mm), `taken` (seconds since 1970, the camera's clock), `width`, `height`,
    /// `hasLocation`; `latitude` and `longitude` (degrees, north and east positive) only with
    /// `--show-location`.
    var photo: PhotoDetails?
    /// An animated GIF, PNG or WebP: `frames`, `duration` (seconds, one play), `loops` (plays
    /// after the first: 0 forever; absent: once), `isCut` (counted in the first 64 MiB only).
    var animation: AnimationInfo?
    var capabilities: [String: CapabilityRecord]?
    var error: ErrorRecord?

    /// A file that failed; what was learnt before the failure (type, size) is kept.
    init(path: DocumentPath, document: Document? = nil, error: ErrorRecord) {
        self.path = path.jsonText
        self.name = path.jsonName
        self.ok = false
        self.error = error
        if let document {
            describe(document.contentType)
            size = document.file.size
            sizeHuman = DocumentInfo.formatSize(document.file.size)
            modified = Self.iso8601(document.file.modificationTime.date)
        }
    }

    /// The type's fields: kind, MIME type, parents, family, icons, whether it was a guess.
    private mutating func describe(_ type: ContentType) {
        kind = type.localizedDescription
        mimeType = type.mimeType
        parentTypes = type.parentTypes
        family = type.family.rawValue
        iconName = type.iconName
        genericIconName = type.genericIconName
        uncertain = type.isUncertain
    }

    init(info: DocumentInfo) {
        path = info.path.jsonText
        name = info.path.jsonName
        ok = info.problem == nil
        describe(info.contentType)
        size = info.size
        sizeHuman = info.formattedSize
        modified = Self.iso8601(info.modified.date)
        fonts = info.fontFaces
        archive = info.archive.map(ArchiveRecord.init)
        media = info.media.map(MediaRecord.init)
        table = info.table
        database = info.database.map(DatabaseRecord.init)
        json = info.json.map(JSONRecord.init)
        markdown = info.markdown.map(MarkdownRecord.init)
        notebook = info.notebook.map(NotebookRecord.init)
        comicBook = info.comicBook
        ebook = info.ebook.map(EbookRecord.init)
        djvu = info.djvu
        mail = info.mail
        photo = info.photo
        animation = info.animation
        if let pdf = info.pdf {
            self.pdf = PDFRecord(
                pages: pdf.pageCount, pageWidth: pdf.firstPageSize?.width, pageHeight: pdf.firstPageSize?.height,
                paper: pdf.firstPageSize?.paperName, title: pdf.title, author: pdf.author,
                subject: pdf.subject, keywords: pdf.keywords, creator: pdf.creator,
                producer: pdf.producer, created: pdf.creationDate.map(Self.iso8601),
                modified: pdf.modificationDate.map(Self.iso8601), version: pdf.version,
                encrypted: pdf.isEncrypted, passwordProtected: pdf.isPasswordProtected)
        }
        if let image = info.image {
            self.image = ImageRecord(width: image.width, height: image.height, format: image.format)
        }
        let caps = info.capabilities
        var print: CapabilityRecord
        switch caps.print {
        // `supported` is the content's answer; the note says so (see InfoCardFormatter.printContentOnly).
        case .direct: print = CapabilityRecord(supported: true, mode: "direct", via: nil, reason: nil,
                                               note: "the content; \(InfoCardFormatter.printContentOnly)")
        case .byConversion(let type): print = CapabilityRecord(supported: true, mode: "conversion", via: type, reason: nil,
                                                               note: "the content; \(InfoCardFormatter.printContentOnly)")
        case .unsupported(let reason): print = CapabilityRecord(supported: false, mode: "none", via: nil, reason: reason)
        }
        capabilities = [
            "preview": CapabilityRecord(supported: caps.preview.isSupported, mode: nil, via: nil, reason: caps.preview.reason,
                                        note: caps.preview.note),
            "thumbnail": CapabilityRecord(supported: caps.thumbnail.isSupported, mode: nil, via: nil, reason: caps.thumbnail.reason),
            "print": print,
        ]
        error = info.problem.map(ErrorRecord.init)
    }

    static func iso8601(_ date: Date) -> String {
        TimeText.iso8601(date)
    }

    /// Encodes records as a JSON array; keys sorted and nulls written, so the schema is stable.
    static func encode(_ records: [InfoRecord]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(records), as: UTF8.self)
    }
}
