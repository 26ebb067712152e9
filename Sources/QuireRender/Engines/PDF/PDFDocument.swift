internal import CPoppler
import FoundationEssentials
import QuireTypes
import QuireGIO

/// An open PDF (poppler-glib). Owns the `PopplerDocument`; released in `deinit`.
///
/// Poppler documents are not thread-safe, so this is not `Sendable`: use it where it was opened.
public final class PDFDocument {
    let handle: OpaquePointer  // PopplerDocument*
    /// The path the document was opened from.
    public let path: DocumentPath

    /// Opens the PDF in `file` (from its open descriptor, so the file checked is the file read).
    /// - Throws: ``DocumentError`` with kind `passwordRequired` for encrypted documents without
    ///   the right password, `damaged` for anything poppler cannot parse.
    public init(file: InputFile, password: String? = nil) throws(DocumentError) {
        path = file.path
        try LazyLibraries.requirePoppler(file.path)
        let fd: Int32
        do { fd = try file.duplicateDescriptor().rawValue } catch { throw DocumentError(error) }
        var gerror: UnsafeMutablePointer<GError>?
        // poppler takes ownership of the descriptor, also on failure.
        let document = libpoppler.poppler_document_new_from_fd(fd, password, &gerror)
        if let document {
            handle = document
            _ = GLibError.take(gerror)
            return
        }
        let error = GLibError.take(gerror)
        if let error, error.domain == "poppler-quark", error.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
            throw DocumentError(kind: .passwordRequired, path: file.path,
                                reason: password == nil ? "PDF is password-protected" : "the password is not correct for this PDF",
                                underlying: error, remedy: password == nil ? .password : nil)
        }
        // poppler-glib retries a failed password as Latin-1 on the descriptor it has already
        // consumed, so a wrong password surfaces as "damaged". Opening without a password tells
        // the two apart: an encrypted document then says so.
        if password != nil, Self.needsPassword(file) {
            throw DocumentError(kind: .passwordRequired, path: file.path,
                                reason: "the password is not correct for this PDF", underlying: error)
        }
        throw DocumentError(kind: .damaged, path: file.path,
                            reason: "not a readable PDF (\(error?.message ?? "poppler could not open it"))",
                            underlying: error)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Whether the PDF in `file` opens only with a password.
    static func needsPassword(_ file: InputFile) -> Bool {
        do {
            _ = try PDFDocument(file: file, password: nil)
            return false
        } catch {
            return error.kind == .passwordRequired
        }
    }

    var document: OpaquePointer { handle }

    /// Number of pages.
    public var pageCount: Int { Int(libpoppler.poppler_document_get_n_pages(document)) }

    /// Size of a page in PostScript points (1/72 inch), or nil if the page does not exist.
    public func pageSize(at index: Int) -> PageSize? {
        guard index >= 0, index < pageCount, let page = libpoppler.poppler_document_get_page(document, Int32(index)) else {
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        libpoppler.poppler_page_get_size(page, &width, &height)
        return PageSize(width: width, height: height)
    }

    /// Document metadata and page facts.
    public var info: PDFInfo {
        let created = libpoppler.poppler_document_get_creation_date(document)
        let modified = libpoppler.poppler_document_get_modification_date(document)
        let permissions = libpoppler.poppler_document_get_permissions(document).rawValue
        let full = POPPLER_PERMISSIONS_FULL.rawValue
        return PDFInfo(
            pageCount: pageCount,
            firstPageSize: pageSize(at: 0),
            title: take(libpoppler.poppler_document_get_title(document)),
            author: take(libpoppler.poppler_document_get_author(document)),
            subject: take(libpoppler.poppler_document_get_subject(document)),
            keywords: take(libpoppler.poppler_document_get_keywords(document)),
            creator: take(libpoppler.poppler_document_get_creator(document)),
            producer: take(libpoppler.poppler_document_get_producer(document)),
            creationDate: created > 0 ? Date(timeIntervalSince1970: TimeInterval(created)) : nil,
            modificationDate: modified > 0 ? Date(timeIntervalSince1970: TimeInterval(modified)) : nil,
            version: take(libpoppler.poppler_document_get_pdf_version_string(document)),
            isEncrypted: permissions & full != full,
            isPasswordProtected: false,
            permissionsRestricted: permissions & full != full)
    }

    /// Copies a GLib string and frees it; empty strings become nil.
    private func take(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        let value = String(cString: pointer).trimmingWhitespaceAndNewlines()
        return value.isEmpty ? nil : value
    }
}

/// A page size in PostScript points.
public struct PageSize: Sendable, Hashable, Codable {
    public let width: Double
    public let height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A well-known paper name when the size matches one within 1 pt, e.g. "A4", "US Letter".
    public var paperName: String? {
        let known: [(String, Double, Double)] = [
            ("A3", 841.89, 1190.55), ("A4", 595.28, 841.89), ("A5", 419.53, 595.28),
            ("US Letter", 612, 792), ("US Legal", 612, 1008), ("Tabloid", 792, 1224),
        ]
        for (name, w, h) in known {
            if (abs(width - w) <= 1 && abs(height - h) <= 1) || (abs(width - h) <= 1 && abs(height - w) <= 1) {
                return name
            }
        }
        return nil
    }
}

/// Facts about a PDF for the info card.
public struct PDFInfo: Sendable, Hashable, Codable {
    public var pageCount: Int?
    public var firstPageSize: PageSize?
    public var title: String?
    public var author: String?
    public var subject: String?
    public var keywords: String?
    public var creator: String?
    public var producer: String?
    public var creationDate: Date?
    public var modificationDate: Date?
    public var version: String?
    /// True when the document is encrypted (detected by a password requirement or restricted
    /// permissions; a document encrypted with full permissions and no user password reads as
    /// not encrypted).
    public var isEncrypted: Bool
    /// True when a user password is needed to open the document.
    public var isPasswordProtected: Bool
    /// True when the document restricts printing, copying or changes.
    public var permissionsRestricted: Bool

    /// What can be told about a PDF that needs a password that was not given.
    public static let locked = PDFInfo(
        pageCount: nil, firstPageSize: nil, title: nil, author: nil, subject: nil, keywords: nil,
        creator: nil, producer: nil, creationDate: nil, modificationDate: nil, version: nil,
        isEncrypted: true, isPasswordProtected: true, permissionsRestricted: false)
}
