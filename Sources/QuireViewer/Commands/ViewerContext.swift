import Quire

/// What a viewer shows at the moment a key is pressed: enough to tell which commands apply.
public struct ViewerContext: Sendable, Hashable {
    public enum Showing: Sendable, Hashable {
        /// The file is still opening (or failed): only file-level commands apply.
        case opening, problem
        /// Pages (documents, images, a video's frames, a font's specimen, an archive's listing).
        case pages
        /// A text file shown as text (lines).
        case text
    }

    public var showing: Showing
    /// Whether the pages carry text to find and copy (not a picture, a video, a font specimen).
    public var hasText: Bool
    public var isFindActive: Bool
    public var fileCount: Int
    public var hasArchiveEntries: Bool
    public var canPrint: Bool
    /// The text shown is a delimited table (CSV, TSV): its columns scroll and sort.
    public var isTable: Bool
    /// Whether the text is a JSON document with its outline (foldable as a tree).
    public var hasTree: Bool
    /// A PDF is shown whose permissions let annotations be added (the window's Markup).
    public var canMarkup: Bool
    /// Whether the file is an animated image that plays (GIF, WebP).
    public var isAnimated: Bool
    /// Whether the file is a camera RAW photo, whose sensor data can be developed.
    public var canDevelop: Bool
    /// Whether the text shown is a book with a table of contents (EPUB).
    public var hasContents: Bool

    public init(showing: Showing, hasText: Bool, isFindActive: Bool, fileCount: Int, hasArchiveEntries: Bool, canPrint: Bool,
                isTable: Bool = false, hasTree: Bool = false, canMarkup: Bool = false, isAnimated: Bool = false,
                canDevelop: Bool = false, hasContents: Bool = false) {
        self.showing = showing
        self.hasText = hasText
        self.isFindActive = isFindActive
        self.fileCount = fileCount
        self.hasArchiveEntries = hasArchiveEntries
        self.canPrint = canPrint
        self.isTable = isTable
        self.hasTree = hasTree
        self.canMarkup = canMarkup
        self.isAnimated = isAnimated
        self.canDevelop = canDevelop
        self.hasContents = hasContents
    }

    var isBrowsable: Bool { showing == .pages || showing == .text }
}

extension ViewerModel {
    /// The context the viewer-command table reads for this model's current file.
    public var commandContext: ViewerContext {
        let showing: ViewerContext.Showing
        var isTable = false
        switch content {
        case .opening: showing = .opening
        case .problem: showing = .problem
        case .pages: showing = .pages
        case .text(let text):
            showing = .text
            isTable = text.table != nil
        }
        let family = card?.family
        let pictureFamilies: Set<DocumentFamily?> = [.image, .video, .audio, .font, .archive, .comicBook, .svg]
        let hasText = showing == .text || (showing == .pages && !pictureFamilies.contains(family))
        return ViewerContext(showing: showing, hasText: hasText, isFindActive: find.isActive, fileCount: fileCount,
                             hasArchiveEntries: !archiveEntries.isEmpty, canPrint: printAction.isAvailable, isTable: isTable,
                             hasTree: showing == .text && jsonOutline != nil, canMarkup: showing == .pages && markupPermission == .allowed,
                             isAnimated: showing == .pages && playableAnimation != nil, canDevelop: canDevelop,
                             hasContents: !contents.isEmpty)
    }
}
