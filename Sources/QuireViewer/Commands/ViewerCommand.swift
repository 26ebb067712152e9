/// Everything a viewer offers, one value each: its help text, its keys in the window and in the
/// terminal, and when it applies. Both front-ends dispatch keys through this table, and
/// `quire look --help`, the man page and the terminal's `?` screen are written from it.
///
/// Keys that mean one thing in one place and another elsewhere are resolved here, once: `n`
/// and `N` are the next and previous match while a search is on, else the next and previous
/// file; Esc ends a search before it closes anything. Modal states (typing a page number or a
/// search, the print form, the archive list, the index sheet) read their own keys first.
public enum ViewerCommand: String, CaseIterable, Sendable {
    case close
    case help
    case nextScreen, previousScreen
    case lineDown, lineUp
    case firstPage, lastPage
    case goTo
    case nextFile, previousFile
    case find, nextMatch, previousMatch, endFind
    case zoomIn, zoomOut, zoomToFit
    case panLeft, panRight
    case sortColumn
    case info
    case print
    case copy, copyPageImage, copyPath, selectAll
    case openEntry
    case indexSheet
    case sidebar
    /// An animated GIF or WebP in the window: pause and play, one frame on or back (paused).
    case playPause, nextFrame, previousFrame
    /// A JSON document as a foldable tree (the terminal; the window shows the text).
    case tree, foldNode, foldAll, unfoldAll, copyNodePath
    /// Marking a PDF up (the window): the Markup tool bar, undoing its changes before Done, and
    /// removing the annotation selected (clicked) in it.
    case markup, undo, redo, deleteAnnotation
    /// A camera RAW photo: its sensor data developed at full size, or the camera's preview again.
    case develop

    /// The two front-ends.
    public enum FrontEnd: Sendable, CaseIterable { case window, terminal }

    /// What the command does, as help shows it.
    public var help: String {
        switch self {
        case .close: "close the viewer (Esc first ends a search, leaves a list, or goes back from a file opened from an archive)"
        case .help: "show these keys"
        case .nextScreen: "next page (text: next screen)"
        case .previousScreen: "previous page (text: previous screen)"
        case .lineDown: "scroll down (text: one line; a page's end turns to the next)"
        case .lineUp: "scroll up (text: one line; a page's top turns to the previous)"
        case .firstPage: "first page (text: first line)"
        case .lastPage: "last page (text: last line)"
        case .goTo: "go to a page (text: a line): type its number, then Enter"
        case .nextFile: "next file"
        case .previousFile: "previous file"
        case .find: "find a word in the file"
        case .nextMatch: "next match (while a search is on)"
        case .previousMatch: "previous match (while a search is on)"
        case .endFind: "end the search"
        case .zoomIn: "zoom in"
        case .zoomOut: "zoom out"
        case .zoomToFit: "fit the page"
        case .panLeft: "pan a zoomed page left (a table: one column left)"
        case .panRight: "pan a zoomed page right (a table: one column right)"
        case .sortColumn: "sort a table by its leftmost column in view (again: the other way)"
        case .info: "show or hide the file's info card"
        case .print: "print (offered only when printing can work)"
        case .copy: "copy: the selection, else the file (the terminal: the page's text, through OSC 52)"
        case .copyPageImage: "copy the page in view as a picture"
        case .copyPath: "copy the file's path (the terminal: through OSC 52; the window: Share, Copy Path)"
        case .selectAll: "select the page's text"
        case .openEntry: "list an archive's files (a database's tables) to open one"
        case .indexSheet: "show every file as a tile (the index sheet)"
        case .sidebar: "show or hide the sidebar: the page thumbnails, or a book's contents to go to a chapter (the terminal: the contents as a list)"
        case .playPause: "pause or play an animated image"
        case .nextFrame: "an animated image's next frame (paused)"
        case .previousFrame: "an animated image's previous frame (paused)"
        case .tree: "show a JSON document as a foldable tree (Esc: its text)"
        case .foldNode: "fold or unfold the JSON node under the cursor"
        case .foldAll: "fold every JSON node below the top level"
        case .unfoldAll: "unfold every JSON node"
        case .copyNodePath: "copy the path of the JSON node under the cursor (.items[3].name), through OSC 52"
        case .markup: "show or hide the Markup tool bar (a PDF: highlight, underline or strike through the selection, notes, text boxes, shapes, drawings, signatures, move or delete annotations, turn pages; Done saves into the file)"
        case .undo: "undo the last markup change not yet saved"
        case .redo: "redo the markup change last undone"
        case .deleteAnnotation: "remove the annotation clicked in Markup (when Done saves)"
        case .develop: "a camera RAW photo: develop its sensor data at full size (slower; again: the camera's preview)"
        }
    }

    /// The command's keys in a front-end; empty where it has none there (the window's card is
    /// always in its header; the terminal has no picture clipboard, and its sidebar is a book's
    /// contents alone).
    public func keys(in frontEnd: FrontEnd) -> [ViewerKey] {
        switch frontEnd {
        case .window: windowKeys
        case .terminal: terminalKeys
        }
    }

    private var windowKeys: [ViewerKey] {
        switch self {
        case .close: [ViewerKey(.escape), ViewerKey(.space)]
        case .help: []
        case .nextScreen: [ViewerKey(.pageDown)]
        case .previousScreen: [ViewerKey(.pageUp)]
        case .lineDown: [ViewerKey(.down)]
        case .lineUp: [ViewerKey(.up)]
        case .firstPage: [ViewerKey(.home)]
        case .lastPage: [ViewerKey(.end)]
        case .goTo: [.character("g", control: true), .character("l", control: true)]
        case .nextFile: [ViewerKey(.right)]
        case .previousFile: [ViewerKey(.left)]
        case .find: [.character("f", control: true)]
        case .nextMatch: [ViewerKey(.function(3))]
        case .previousMatch: [ViewerKey(.function(3), shift: true)]
        case .endFind: [ViewerKey(.escape)]
        case .zoomIn: [.character("+", control: true), .character("=", control: true)]
        case .zoomOut: [.character("-", control: true)]
        case .zoomToFit: [.character("0", control: true)]
        case .panLeft, .panRight, .info, .openEntry, .copyPath, .sortColumn: []
        case .print: [.character("p", control: true)]
        case .copy: [.character("c", control: true)]
        case .copyPageImage: [.character("C", control: true)]
        case .selectAll: [.character("a", control: true)]
        case .indexSheet: [ViewerKey(.up, control: true)]
        case .sidebar: [ViewerKey(.function(9))]
        // Space is Quick Look's close: k pauses, as in video players; . and , step.
        case .playPause: [.character("k")]
        case .nextFrame: [.character(".")]
        case .previousFrame: [.character(",")]
        case .tree, .foldNode, .foldAll, .unfoldAll, .copyNodePath: []
        case .markup: [.character("A", control: true)]
        case .undo: [.character("z", control: true)]
        case .redo: [.character("Z", control: true)]
        case .deleteAnnotation: [ViewerKey(.delete)]
        case .develop: [.character("D", control: true)]
        }
    }

    private var terminalKeys: [ViewerKey] {
        switch self {
        case .close: [.character("q"), ViewerKey(.escape)]
        case .help: [.character("?")]
        case .nextScreen: [ViewerKey(.space), ViewerKey(.pageDown), .character("f")]
        case .previousScreen: [.character("b"), ViewerKey(.pageUp)]
        case .lineDown: [.character("j"), ViewerKey(.down), ViewerKey(.enter)]
        case .lineUp: [.character("k"), ViewerKey(.up)]
        case .firstPage: [ViewerKey(.home), .character("g")]
        case .lastPage: [ViewerKey(.end), .character("G")]
        case .goTo: [.character("1")]   // stands for any digit 1-9: see ``command(for:in:findActive:)``
        case .nextFile: [ViewerKey(.right), .character("n")]
        case .previousFile: [ViewerKey(.left), .character("N")]
        case .find: [.character("/")]
        case .nextMatch: [.character("n")]
        case .previousMatch: [.character("N")]
        case .endFind: [ViewerKey(.escape)]
        case .zoomIn: [.character("+"), .character("=")]
        case .zoomOut: [.character("-"), .character("_")]
        case .zoomToFit: [.character("0")]
        case .panLeft: [.character("h"), ViewerKey(.left, shift: true)]
        case .panRight: [.character("l"), ViewerKey(.right, shift: true)]
        case .sortColumn: [.character("s")]
        case .info: [.character("i")]
        case .print: [.character("p")]
        case .copy: [.character("y")]
        case .copyPath: [.character("Y")]
        case .copyPageImage, .selectAll: []
        case .sidebar: [.character("C")]
        case .playPause, .nextFrame, .previousFrame: []
        case .openEntry: [.character("o")]
        case .indexSheet: [.character("t")]
        case .tree: [.character("T")]
        case .foldNode: [ViewerKey(.tab)]
        case .foldAll: [.character("z")]
        case .unfoldAll: [.character("Z")]
        case .copyNodePath: [.character("c")]
        case .markup, .undo, .redo, .deleteAnnotation: []
        case .develop: [.character("D")]
        }
    }

    /// Whether the command does something for what is shown (help and status lines list only
    /// those). A key whose command does not apply still reaches it: the front-end says why
    /// ("only one file", "zoomed in as far as it goes").
    public func applies(in context: ViewerContext) -> Bool {
        switch self {
        case .close, .help, .info, .copyPath: true
        case .nextScreen, .previousScreen, .lineDown, .lineUp, .firstPage, .lastPage, .goTo: context.isBrowsable
        case .nextFile, .previousFile, .indexSheet: context.fileCount > 1
        case .find: context.hasText
        case .nextMatch, .previousMatch, .endFind: context.isFindActive
        case .zoomIn, .zoomOut, .zoomToFit, .copyPageImage: context.showing == .pages
        case .sidebar: context.showing == .pages || context.hasContents
        case .panLeft, .panRight: context.showing == .pages || context.isTable
        case .sortColumn: context.isTable
        case .print: context.canPrint
        case .copy, .selectAll: context.hasText
        case .openEntry: context.hasArchiveEntries
        case .tree, .foldNode, .foldAll, .unfoldAll, .copyNodePath: context.hasTree
        case .markup, .undo, .redo, .deleteAnnotation: context.canMarkup
        case .playPause, .nextFrame, .previousFrame: context.isAnimated
        case .develop: context.canDevelop
        }
    }

    /// The command a key stands for in a front-end, or nil. While a search is on, its keys
    /// (`n`, `N`, F3, Esc) are the search's; otherwise the first command in the table that has
    /// the key. In the terminal a digit 1-9 starts typing a page number (then Enter; `0` fits the
    /// page).
    public static func command(for key: ViewerKey, in frontEnd: FrontEnd, findActive: Bool) -> ViewerCommand? {
        if frontEnd == .terminal, case .character(let character) = key.base, !key.control,
           ("1"..."9").contains(character) {
            return .goTo
        }
        let searchCommands: [ViewerCommand] = [.endFind, .nextMatch, .previousMatch]
        if findActive, let command = searchCommands.first(where: { $0.keys(in: frontEnd).contains(key) }) {
            return command
        }
        // Otherwise the table's order decides: Esc is close before endFind, n is nextFile before
        // nextMatch.
        return allCases.first { $0.keys(in: frontEnd).contains(key) }
    }

    /// The keys of a front-end, a line a command: "PgDn, Space  next page …".
    public static func helpLines(for frontEnd: FrontEnd, in context: ViewerContext? = nil) -> [(keys: String, help: String)] {
        allCases.compactMap { command in
            var keys = command.keys(in: frontEnd)
            guard !keys.isEmpty, context.map(command.applies) ?? true else { return nil }
            // The terminal has no page thumbnails: its sidebar is a book's contents alone.
            if frontEnd == .terminal, command == .sidebar, let context, !context.hasContents { return nil }
            if frontEnd == .terminal, command == .goTo { return ("1-9 then Enter", command.help) }
            if keys.count > 3 { keys = Array(keys.prefix(3)) }
            return (keys.map(\.label).joined(separator: ", "), command.help)
        }
    }

    /// The keys as one paragraph of help text ("q, Esc: close the viewer; …").
    public static func helpParagraph(for frontEnd: FrontEnd) -> String {
        helpLines(for: frontEnd).map { "\($0.keys): \($0.help)" }.joined(separator: "; ")
    }
}
