/// Whether Quire can perform one action on a kind of content, and why not when it cannot.
public enum Capability: Sendable, Hashable {
    case supported
    case unsupported(reason: String)

    public var isSupported: Bool {
        if case .supported = self { return true }
        return false
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
    public static func of(_ family: DocumentFamily, description: @autoclosure () -> String) -> Capabilities {
        switch family {
        case .pdf:
            return Capabilities(preview: .supported, thumbnail: .supported, print: .direct)
        case .postscript:
            // Rendered in-process by Ghostscript through libspectre.
            return Capabilities(preview: .supported, thumbnail: .supported, print: .direct)
        case .image, .svg, .text, .font:
            return Capabilities(preview: .supported, thumbnail: .supported,
                                print: .byConversion(to: "application/pdf"))
        case .officeDocument, .ebook, .comicBook:
            return Capabilities(preview: .supported, thumbnail: .supported,
                                print: .unsupported(reason: "Quire cannot print \(description()) files; only their preview image is readable"))
        case .video, .audio:
            let what = family == .video ? "video" : "audio"
            return Capabilities(preview: .supported, thumbnail: .supported,
                                print: .unsupported(reason: "Quire does not print \(what) (\(description()))"))
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
}
