internal import QuireGIO

/// A uniform type for file content, in the manner of `UTType`, backed by shared-mime-info.
///
/// A content type is identified by its MIME type. It knows its human description
/// ("PDF document"), its icon names, its parent types (is-a), the document family Quire
/// handles it with, and what Quire can do with it.
public struct ContentType: Sendable, Hashable, CustomStringConvertible {
    /// The MIME type, e.g. `application/pdf`.
    public let mimeType: String
    /// The localized human description from shared-mime-info, e.g. "PDF document".
    public var localizedDescription: String { SharedMimeInfo.description(of: mimeType) }
    /// The generic icon name (freedesktop icon naming), e.g. `x-office-document`.
    public var genericIconName: String { SharedMimeInfo.genericIconName(of: mimeType) }
    /// The specific icon name: the MIME type with `/` replaced by `-`, e.g. `application-pdf`.
    public var iconName: String {
        String(decoding: mimeType.utf8.map { $0 == UInt8(ascii: "/") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }
    /// All ancestor types, nearest first (e.g. `text/x-csrc` → `text/plain`, …,
    /// `application/octet-stream`).
    public var parentTypes: [String] { MimeHierarchy.shared.ancestors(of: mimeType) }
    /// The family Quire treats this type as.
    public let family: DocumentFamily
    /// True when detection was uncertain (no glob or magic matched with confidence).
    public let isUncertain: Bool

    /// What Quire can do with content of this type.
    public var capabilities: Capabilities { Capabilities.of(family, description: localizedDescription, mimeType: mimeType) }

    public var description: String { mimeType }

    // Only the MIME type, family and certainty are stored: the description, icons and parents
    // are looked up when asked for, so a thumbnailer that needs none of them does not pay for
    // reading the hierarchy and the localized descriptions.

    /// The content type for a known MIME type (or alias), without looking at any file.
    public init(mimeType: String) {
        self.init(resolving: MimeHierarchy.shared.canonical(mimeType), uncertain: false)
    }

    /// - Parameter empty: the content is empty: the type comes from the name alone, and the
    ///   family is ``DocumentFamily/empty`` whatever the type (there is nothing to show).
    init(resolving type: String, uncertain: Bool, empty: Bool = false) {
        let mime = SharedMimeInfo.mimeType(of: type)
        self.mimeType = mime
        self.isUncertain = uncertain
        self.family = empty ? .empty : Self.family(of: mime)
    }

    /// Whether this type is `other` or a subtype of it (shared-mime-info `is-a`).
    public func conforms(to other: String) -> Bool {
        mimeType == other || SharedMimeInfo.isA(mimeType, other) || parentTypes.contains(other)
    }

    static func family(of mime: String) -> DocumentFamily {
        for (family, bases) in DocumentFamily.baseTypes {
            for base in bases where mime == base || SharedMimeInfo.isA(mime, base) {
                return family
            }
        }
        if DocumentFamily.officePrefixes.contains(where: mime.hasPrefix) { return .officeDocument }
        for base in DocumentFamily.archiveTypes where mime == base || SharedMimeInfo.isA(mime, base) { return .archive }
        if SharedMimeInfo.isA(mime, "image/x-compressed-xcf") { return .other }
        if mime.hasPrefix("image/") { return .image }
        if SharedMimeInfo.isA(mime, "text/plain") { return .text }
        if mime.hasPrefix("video/") || mime == "application/ogg" || mime == "application/x-matroska" { return .video }
        if mime.hasPrefix("audio/") { return .audio }
        return .other
    }

    /// Every MIME type shared-mime-info knows, sorted (aliases excluded).
    public static var registeredMimeTypes: [String] {
        Array(Set(SharedMimeInfo.registeredTypes().map(SharedMimeInfo.mimeType(of:)))).sorted()
    }

    // MARK: Detection

    /// Bytes read from the start of a file for content sniffing: what GIO's file info (Nautilus,
    /// `gio info`) reads, so the text/binary fallback sees the same bytes a file manager does.
    /// Every magic rule in shared-mime-info 2.2 but one (DTS-HD audio, at offset 4 to 18 725)
    /// lies within it.
    public static let sniffLength = 4096

    /// Detects the type from a file name and the first bytes of its content, as file managers
    /// do: shared-mime-info's recommended checking order as GIO applies it — the name's glob
    /// first; content overrides a name only through a high-priority (≥ 80) magic match, a magic
    /// match for a non-text sub-class of the name's type, or (Quire's deliberate additions) binary content
    /// under a text name and an image or document signature under a name whose own signature is
    /// missing. Weak text magic never overrides a name. Empty content is typed by the name
    /// alone (`application/x-zerosize` when no glob matches) and belongs to the
    /// ``DocumentFamily/empty`` family. See ``CheckingOrder`` and docs/notes/types.md.
    public static func detect(fileName: [UInt8], prefix: [UInt8]) -> ContentType {
        let decision = CheckingOrder.decide(fileName: fileName, prefix: prefix)
        return ContentType(resolving: decision.type, uncertain: decision.uncertain, empty: decision.empty)
    }

    /// Detects the type of an open file from its name and first bytes.
    ///
    /// A file whose size is 0 is typed by its name without being read, as GIO does: files under
    /// `/proc` and `/sys` report size 0 and may block, fail or have side effects when read
    /// (`/proc/self/mem` fails with EIO).
    public static func detect(_ file: InputFile) throws(InputError) -> ContentType {
        let prefix = file.size == 0 ? [] : try file.read(upTo: sniffLength)
        return detect(fileName: file.path.lastComponentBytes, prefix: prefix)
    }

    /// Detects from content alone (no file name), e.g. for data read from a pipe.
    public static func detect(data: [UInt8]) -> ContentType {
        detect(fileName: [], prefix: Array(data.prefix(sniffLength)))
    }
}
