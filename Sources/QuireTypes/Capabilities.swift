/// Whether Quire can perform one action on a kind of content, and why not when it cannot.
public enum Capability: Sendable, Hashable {
    case supported
    /// Supported, with what the user should know about it ("the preview image inside the
    /// file; install LibreOffice … for every page").
    case limited(note: String)
    case unsupported(reason: String)

    public var isSupported: Bool {
        if case .unsupported = self { return false }
        return true
    }

    /// What to know about a supported action that does less than it could, or nil.
    public var note: String? {
        if case .limited(let note) = self { return note }
        return nil
    }

    /// The reason the action is unavailable, or nil when it is supported.
    public var reason: String? {
        if case .unsupported(let reason) = self { return reason }
        return nil
    }
}

/// How a kind of content can be printed.
public enum PrintCapability: Sendable, Hashable {
    /// The print system accepts the content as it is.
    case direct
    /// Quire converts the content (to the given MIME type, PDF) before sending it.
    case byConversion(to: String)
    case unsupported(reason: String)

    public var isSupported: Bool {
        if case .unsupported = self { return false }
        return true
    }

    public var reason: String? {
        if case .unsupported(let reason) = self { return reason }
        return nil
    }
}

/// What Quire can do with a kind of content: preview, thumbnail, print.
///
/// This is a property of the *content*; whether printing can work right now also depends on the
/// print system (see print availability).
public struct Capabilities: Sendable, Hashable {
    public var preview: Capability
    public var thumbnail: Capability
    public var print: PrintCapability

    public init(preview: Capability, thumbnail: Capability, print: PrintCapability) {
        self.preview = preview
        self.thumbnail = thumbnail
        self.print = print
    }

    /// The capabilities of a family; `description` names the type in reasons ("ZIP archive"),
    /// asked for only when a reason is given (shared-mime-info's description is read from an XML
    /// file: 0.4 M instructions of a `quire print` or `can-print` that never shows it).
    /// `mimeType` tells office formats that can carry a preview image (zip containers) from
    /// those that cannot (legacy binary .doc/.xls/.ppt, RTF) when LibreOffice is not installed.
    public static func of(_ family: DocumentFamily, description: @autoclosure () -> String,
                          mimeType: String? = nil) -> Capabilities {
        switch family {
        case .pdf:
            return Capabilities(preview: .supported, thumbnail: .supported, print: .direct)
        case .postscript:
            // Rendered in-process by Ghostscript through libspectre.
            return Capabilities(preview: .supported, thumbnail: .supported, print: .direct)
        case .image, .svg, .text, .font, .json, .markdown, .notebook:
            return Capabilities(preview: .supported, thumbnail: .supported,
                                print: .byConversion(to: "application/pdf"))
        case .officeDocument:
            return office(mimeType: mimeType, description: description())
        case .djvu:
            // Scanned pages, printed as images are.
            return Capabilities(preview: .supported, thumbnail: .supported, print: .byConversion(to: "application/pdf"))
        case .comicBook, .ebook, .mail:
            // A comic's pages are images; a book's are laid out as notes are: printed as shown.
            return Capabilities(preview: .supported, thumbnail: .supported, print: .byConversion(to: "application/pdf"))
        case .video, .audio:
            let what = family == .video ? "video" : "audio"
            return Capabilities(preview: .supported, thumbnail: .supported,
                                print: .unsupported(reason: "Quire does not print \(what) (\(description()))"))
        case .database:
            // The table list and first rows, drawn as pages (printed as such).
            return Capabilities(preview: .supported, thumbnail: .supported, print: .byConversion(to: "application/pdf"))
        case .archive:
            return Capabilities(preview: .supported, thumbnail: .supported,
                                print: .unsupported(reason: "Quire does not print archives (\(description())); print the files in it"))
        case .empty:
            return Capabilities(preview: .unsupported(reason: "the file is empty"),
                                thumbnail: .unsupported(reason: "the file is empty"),
                                print: .unsupported(reason: "the file is empty"))
        case .other:
            let description = description()
            return Capabilities(preview: .unsupported(reason: "this file type cannot be previewed (\(description))"),
                                thumbnail: .unsupported(reason: "this file type cannot be thumbnailed (\(description))"),
                                print: .unsupported(reason: "this file type cannot be printed (\(description))"))
        }
    }

    /// Office documents: every page through LibreOffice when it is installed (and printable as
    /// the PDF it makes); without it, only the preview image a zip-based file may carry, and
    /// the reasons name the packages to install.
    static func office(mimeType: String?, description: String) -> Capabilities {
        if OfficeInstallation.isInstalled {
            return Capabilities(preview: .supported, thumbnail: .supported, print: .byConversion(to: "application/pdf"))
        }
        let install = "install LibreOffice (\(OfficeInstallation.packageHint)) for every page"
        let print = PrintCapability.unsupported(reason: "Quire prints \(description) files through LibreOffice, which is not installed (\(OfficeInstallation.packageHint))")
        if let mimeType, !DocumentFamily.carriesPreviewImage(mimeType) {
            let reason = "\(description) files carry no preview image; \(install)"
            return Capabilities(preview: .unsupported(reason: reason), thumbnail: .unsupported(reason: reason), print: print)
        }
        return Capabilities(preview: .supported, thumbnail: .supported, print: print)
    }
}
