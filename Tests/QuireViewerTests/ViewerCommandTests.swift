import Testing
@testable import QuireViewer

/// The viewer-command table: every command reachable by key in each front-end where it makes
/// sense, no key meaning two things there except where the table resolves it by context, and
/// the help written from it.
@Suite struct ViewerCommandTests {
    /// Commands a front-end has no key for, and why.
    static let keyless: [ViewerCommand.FrontEnd: Set<ViewerCommand>] = [
        // The window: its card is in the header; panning is the scroll bars'; the archive list
        // has its header button; help is the man page; Copy Path is in the Share menu; the window
        // shows a table as text, without sorting (yet). The JSON tree is the terminal's (the
        // window shows a JSON document's text).
        .window: [.help, .info, .panLeft, .panRight, .openEntry, .copyPath, .sortColumn, .tree, .foldNode, .foldAll, .unfoldAll, .copyNodePath],
        // The terminal: no picture clipboard, no text selection, no Markup
        // (marking a PDF up is the window's); an animated image shows its first frame there and
        // says it is animated (it does not play). Its sidebar (C) is a book's contents alone.
        .terminal: [.copyPageImage, .selectAll, .markup, .undo, .redo, .deleteAnnotation, .playPause, .nextFrame, .previousFrame],
    ]

    @Test(arguments: ViewerCommand.FrontEnd.allCases)
    func everyCommandHasAKeyWhereItMakesSense(frontEnd: ViewerCommand.FrontEnd) {
        for command in ViewerCommand.allCases {
            let keys = command.keys(in: frontEnd)
            if Self.keyless[frontEnd]!.contains(command) {
                #expect(keys.isEmpty, "\(command) has keys in \(frontEnd) although listed as keyless")
            } else {
                #expect(!keys.isEmpty, "\(command) has no key in \(frontEnd)")
            }
        }
    }

    /// A key names one command in a front-end, except the pairs the search resolves.
    @Test(arguments: ViewerCommand.FrontEnd.allCases)
    func noKeyMeansTwoThings(frontEnd: ViewerCommand.FrontEnd) {
        let resolvedBySearch: Set<Set<ViewerCommand>> = [[.close, .endFind], [.nextFile, .nextMatch], [.previousFile, .previousMatch]]
        var owners: [ViewerKey: Set<ViewerCommand>] = [:]
        for command in ViewerCommand.allCases {
            for key in command.keys(in: frontEnd) { owners[key, default: []].insert(command) }
        }
        for (key, commands) in owners where commands.count > 1 {
            #expect(resolvedBySearch.contains(commands), "\(key.label) means \(commands) in \(frontEnd)")
        }
    }

    @Test func keysResolveByContext() {
        func terminal(_ key: ViewerKey, find: Bool = false) -> ViewerCommand? {
            ViewerCommand.command(for: key, in: .terminal, findActive: find)
        }
        #expect(terminal(.character("n")) == .nextFile)
        #expect(terminal(.character("n"), find: true) == .nextMatch)
        #expect(terminal(.character("N"), find: true) == .previousMatch)
        #expect(terminal(ViewerKey(.escape)) == .close)
        #expect(terminal(ViewerKey(.escape), find: true) == .endFind)
        // less's keys: Space and b page, g and G go to the ends, a number then Enter goes to it.
        #expect(terminal(ViewerKey(.space)) == .nextScreen)
        #expect(terminal(.character("b")) == .previousScreen)
        #expect(terminal(.character("g")) == .firstPage)
        #expect(terminal(.character("G")) == .lastPage)
        #expect(terminal(.character("7")) == .goTo)
        #expect(terminal(.character("0")) == .zoomToFit)
        #expect(terminal(.character("?")) == .help)
        #expect(terminal(.character("x")) == nil)
        // The window keeps Quick Look's Space.
        #expect(ViewerCommand.command(for: ViewerKey(.space), in: .window, findActive: false) == .close)
        #expect(ViewerCommand.command(for: .character("C", control: true), in: .window, findActive: false) == .copyPageImage)
        #expect(ViewerCommand.command(for: ViewerKey(.function(3), shift: true), in: .window, findActive: true) == .previousMatch)
        // An animation: k pauses and plays (Space stays Quick Look's close), . and , step.
        #expect(ViewerCommand.command(for: .character("k"), in: .window, findActive: false) == .playPause)
        #expect(ViewerCommand.command(for: .character("."), in: .window, findActive: false) == .nextFrame)
        #expect(ViewerCommand.command(for: .character(","), in: .window, findActive: false) == .previousFrame)
    }

    /// Playing applies to an animated image only; its keys are in the window's help.
    @Test func playingAppliesToAnimationsOnly() {
        let still = ViewerContext(showing: .pages, hasText: false, isFindActive: false, fileCount: 1, hasArchiveEntries: false, canPrint: false)
        var animated = still
        animated.isAnimated = true
        for command in [ViewerCommand.playPause, .nextFrame, .previousFrame] {
            #expect(!command.applies(in: still) && command.applies(in: animated))
        }
        #expect(ViewerCommand.helpParagraph(for: .window).contains("k: pause or play an animated image"))
        #expect(!ViewerCommand.helpLines(for: .window, in: still).map(\.help).contains(ViewerCommand.playPause.help))
    }

    /// Develop applies to a camera RAW photo only, in both front-ends: Ctrl+Shift+D in the
    /// window (beside its Develop button), D in the terminal (d stays free for less's habits).
    @Test func developingAppliesToCameraRawPhotosOnly() {
        let still = ViewerContext(showing: .pages, hasText: false, isFindActive: false, fileCount: 1, hasArchiveEntries: false, canPrint: false)
        var raw = still
        raw.canDevelop = true
        #expect(!ViewerCommand.develop.applies(in: still) && ViewerCommand.develop.applies(in: raw))
        #expect(ViewerCommand.command(for: .character("D", control: true), in: .window, findActive: false) == .develop)
        #expect(ViewerCommand.command(for: .character("D"), in: .terminal, findActive: false) == .develop)
        #expect(ViewerCommand.command(for: .character("d"), in: .terminal, findActive: false) == nil)
        #expect(ViewerCommand.helpLines(for: .terminal, in: raw).contains { $0.keys == "D" && $0.help == ViewerCommand.develop.help })
        #expect(!ViewerCommand.helpLines(for: .terminal, in: still).map(\.help).contains(ViewerCommand.develop.help))
    }

    /// The sidebar: page thumbnails beside pages (the window's F9 only), a book's contents
    /// beside its text (F9 in the window, C in the terminal, which has no page thumbnails).
    @Test func theSidebarIsPagesOrABooksContents() {
        let pages = ViewerContext(showing: .pages, hasText: true, isFindActive: false, fileCount: 1, hasArchiveEntries: false, canPrint: false)
        let text = ViewerContext(showing: .text, hasText: true, isFindActive: false, fileCount: 1, hasArchiveEntries: false, canPrint: false)
        var book = text
        book.hasContents = true
        #expect(ViewerCommand.sidebar.applies(in: pages) && ViewerCommand.sidebar.applies(in: book) && !ViewerCommand.sidebar.applies(in: text))
        #expect(ViewerCommand.command(for: ViewerKey(.function(9)), in: .window, findActive: false) == .sidebar)
        #expect(ViewerCommand.command(for: .character("C"), in: .terminal, findActive: false) == .sidebar)
        #expect(ViewerCommand.helpLines(for: .terminal, in: book).contains { $0.keys == "C" && $0.help == ViewerCommand.sidebar.help })
        #expect(!ViewerCommand.helpLines(for: .terminal, in: pages).map(\.help).contains(ViewerCommand.sidebar.help))
        #expect(ViewerCommand.helpLines(for: .window, in: pages).map(\.help).contains(ViewerCommand.sidebar.help))
    }

    /// What applies to a video's frames: no find and no copy (they have no text), zoom yes.
    @Test func onlyWhatAppliesIsOffered() {
        let video = ViewerContext(showing: .pages, hasText: false, isFindActive: false, fileCount: 1,
                                  hasArchiveEntries: false, canPrint: false)
        let offered = Set(ViewerCommand.allCases.filter { $0.applies(in: video) })
        #expect(!offered.contains(.find) && !offered.contains(.copy) && !offered.contains(.print))
        #expect(!offered.contains(.nextFile) && !offered.contains(.openEntry) && !offered.contains(.nextMatch))
        #expect(offered.contains(.zoomIn) && offered.contains(.close) && offered.contains(.help))
        let lines = ViewerCommand.helpLines(for: .terminal, in: video).map(\.help)
        #expect(!lines.contains(ViewerCommand.find.help) && lines.contains(ViewerCommand.zoomIn.help))
    }

    /// Markup (issue 36) is the window's: Ctrl+Shift+A shows its tool bar, Ctrl+Z and
    /// Ctrl+Shift+Z undo and redo its changes; offered only for a PDF whose permissions let it
    /// be annotated, never in the terminal.
    @Test func markupIsTheWindowsForAnnotatablePDFs() {
        func window(_ key: ViewerKey) -> ViewerCommand? { ViewerCommand.command(for: key, in: .window, findActive: false) }
        #expect(window(.character("A", control: true)) == .markup)
        #expect(window(.character("a", control: true)) == .selectAll, "Ctrl+A still selects the page's text")
        #expect(window(.character("z", control: true)) == .undo)
        #expect(window(.character("Z", control: true)) == .redo)
        #expect(ViewerCommand.markup.keys(in: .window).map(\.label) == ["Ctrl+Shift+A"])
        #expect(ViewerCommand.redo.keys(in: .window).map(\.label) == ["Ctrl+Shift+Z"])
        for command in [ViewerCommand.markup, .undo, .redo] { #expect(command.keys(in: .terminal).isEmpty) }
        let pdf = ViewerContext(showing: .pages, hasText: true, isFindActive: false, fileCount: 1, hasArchiveEntries: false,
                                canPrint: true, canMarkup: true)
        var locked = pdf
        locked.canMarkup = false
        let text = ViewerContext(showing: .text, hasText: true, isFindActive: false, fileCount: 1, hasArchiveEntries: false, canPrint: true)
        #expect(ViewerCommand.markup.applies(in: pdf) && ViewerCommand.undo.applies(in: pdf))
        #expect(!ViewerCommand.markup.applies(in: locked) && !ViewerCommand.markup.applies(in: text))
        #expect(ViewerCommand.helpLines(for: .window, in: pdf).contains { $0.keys == "Ctrl+Shift+A" && $0.help == ViewerCommand.markup.help })
        #expect(!ViewerCommand.helpLines(for: .window, in: locked).contains { $0.keys == "Ctrl+Shift+A" })
        #expect(ViewerCommand.helpParagraph(for: .window).contains("Ctrl+Z: undo the last markup change not yet saved"))
    }

    /// `quire look --help` and the man page are written from the table: every keyed command's
    /// help is in the paragraph, with its keys.
    @Test(arguments: ViewerCommand.FrontEnd.allCases)
    func helpIsWrittenFromTheTable(frontEnd: ViewerCommand.FrontEnd) {
        let paragraph = ViewerCommand.helpParagraph(for: frontEnd)
        for command in ViewerCommand.allCases where !command.keys(in: frontEnd).isEmpty {
            #expect(paragraph.contains(command.help), "\(command) missing from the \(frontEnd) help")
        }
        #expect(ViewerCommand.helpParagraph(for: .window).contains("Ctrl+F: find a word in the file"))
        #expect(ViewerCommand.helpParagraph(for: .window).contains("Ctrl+Shift+C: copy the page in view as a picture"))
        #expect(ViewerCommand.helpParagraph(for: .terminal).contains("Space, PgDn, f: next page"))
        let terminal = ViewerCommand.helpParagraph(for: .terminal), window = ViewerCommand.helpParagraph(for: .window)
        #expect(terminal.unicodeScalars.allSatisfy { $0.isASCII } && window.unicodeScalars.allSatisfy { $0.isASCII },
                "man pages keep only ASCII")
    }
}
