#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire
import QuireTerminal
import QuireViewer
import QuireRenderService
import QuireGIO

/// `quire look` in a terminal: full screen on the alternate screen, driven by the keyboard,
/// drawing what the ``ViewerModel`` says. Pages are drawn with the best image protocol the
/// terminal answers to (kitty, iTerm2, sixel) or half-block cells; text files are shown as
/// text.
///
/// Keys are read while files open and pages render: both happen in the render service's
/// worker, through the model's render thread, whose answers wake the key loop (a byte on the
/// session's wake pipe). A slow or hanging file shows "opening…" and never holds a key back;
/// moving past it drops it (its worker is killed), and `q` quits at once.
public final class TerminalViewer {
    enum Mode {
        case normal
        case goTo(String)
        /// Typing a word to find after `/`.
        case find(String)
        /// `t`: every file as a tile (the index sheet), the selected one's index.
        case tiles(Int)
        /// `o` on an archive: its files as a list to open one from.
        case entries(TerminalEntryList)
        /// `C` on a book: its table of contents, to go to a chapter.
        case contents(TerminalContentsList)
        case password(String)
        case printing(TerminalPrintForm)
        /// `?`: the keys that apply to the file on screen, from the viewer-command table.
        case help
    }

    private struct Layout {
        var columns = 80, rows = 24
        var contentTop = 1, contentLeft = 1, contentColumns = 80, contentRows = 23
        var panel: (top: Int, left: Int, columns: Int, rows: Int)?
        var form: (top: Int, rows: Int)?
    }

    let model: ViewerModel
    let session: TerminalSession
    private var graphics: TerminalGraphicsProbe
    private var showInfo = false
    private var mode: Mode = .normal
    private var message: (text: String, isError: Bool)?
    private var passwordDeclined: Set<Int> = []
    private var textLinesShown = 1
    /// A table's leftmost column in view (h/l scroll by column), and the file it belongs to.
    private var tableColumnOf: (file: Int, column: Int) = (0, 0)
    private var tableColumn: Int {
        get { tableColumnOf.file == model.fileIndex ? tableColumnOf.column : 0 }
        set { tableColumnOf = (model.fileIndex, newValue) }
    }
    /// The table on screen, if the text is one.
    private var shownTable: TableLayout? {
        if case .text(let text) = model.content { return text.table }
        return nil
    }
    private var layout = Layout()
    private let styled: Bool
    /// `quire look --print`: the print form is open from the start (once the file is open).
    var startsPrinting = false
    /// Pages that came back from the worker, bounded in bytes.
    private var pages = PageCache(byteLimit: 32 << 20)
    /// Pages the worker could not draw, with why.
    private var failedPages: [PageCache.Key: String] = [:]

    init(model: ViewerModel, session: TerminalSession, graphics: TerminalGraphicsProbe, styled: Bool) {
        self.model = model
        self.session = session
        self.graphics = graphics
        self.styled = styled
    }

    /// Runs `quire look` in this terminal for `paths`: takes the screen, asks the terminal what
    /// it can draw, pages through the files until the user closes the viewer, and gives the
    /// screen back. The exit status, or why the terminal could not be used.
    public static func run(paths: [DocumentPath], configuration: ViewerModel.Configuration, password: String?,
                           printing: Bool, styled: Bool, environment: [String: String]) -> Result<Int32, TerminalSessionError> {
        let session = TerminalSession()
        do {
            try session.begin(enteringScreen: false)
        } catch {
            session.end()
            return .failure(error)
        }
        // The worker starts and opens the first file while the terminal answers the probe. The
        // render thread's answers wake the key loop.
        let model = ViewerModel(paths: paths, configuration: configuration) { TerminalSignals.wake() }
        if let password { model.unlock(password: password) }
        let graphics = TerminalGraphicsProbe.run(session: session, environment: environment)
        session.enterAlternateScreen()
        session.setUsesKittyImages(graphics.method == .kitty, throughTmux: graphics.insideTmux)
        let viewer = TerminalViewer(model: model, session: session, graphics: graphics, styled: styled)
        viewer.startsPrinting = printing
        let status = viewer.run()
        session.end()
        return .success(status)
    }

    /// The terminal outside tmux answered (or did not in time): pictures go the way it can show
    /// them from now on.
    private func useSettledGraphics() {
        session.setUsesKittyImages(graphics.method == .kitty, throughTmux: graphics.insideTmux)
    }

    /// Runs until the user closes the viewer; returns the exit status.
    func run() -> Int32 {
        applyUpdates()
        draw()
        while true {
            // The tiles look their files up every second (one may vanish meanwhile).
            let tiling: Bool
            if case .tiles = mode { tiling = true } else { tiling = false }
            var timeout: Int32 = tiling ? 1000 : -1
            if let left = graphics.millisecondsLeft() { timeout = timeout < 0 ? Int32(left) : min(timeout, Int32(left)) }
            switch session.readKeys(timeout: timeout) {
            case .terminated(let signal):
                model.close()
                session.end()
                // Ctrl-C is the user closing the viewer: exit 130 as shells expect, leaving the
                // shell that waits for us running. Other signals end the process as they would.
                if signal == SIGINT { return 130 }
                TerminalSignals.die(of: signal)
            case .resized:
                draw()
            case .timeout:
                // Woken by the render thread: a file opened or a page came back; or the wait
                // for the terminal outside tmux ended.
                let settled = graphics.absorb([])
                if settled { useSettledGraphics() }
                if applyUpdates() || tiling || settled { draw() }
            case .keys(let keys, let bytes):
                if graphics.absorb(bytes) { useSettledGraphics() }
                for key in keys {
                    if let status = handle(key) {
                        if let failure = model.close() { message = (failure, true) }
                        return status
                    }
                }
                applyUpdates()
                draw()
            }
        }
    }

    /// Takes the render thread's answers; whether the screen should be drawn again.
    @discardableResult
    private func applyUpdates() -> Bool {
        var changed = false
        for update in model.update() {
            switch update {
            case .opened(let file):
                if case .tiles = mode { changed = true; continue }
                guard file == model.fileIndex else { continue }
                changed = true
                if let problem = model.problem, problem.kind == .wrongPassword, case .normal = mode {
                    message = (problem.message, true)
                }
                enterPasswordPromptIfNeeded()
                // A JSON document opens as a tree (Esc shows its text, T the tree again).
                if let outline = model.jsonOutline, case .text(let content) = model.content, jsonTree?.file != file {
                    jsonTree = (file, TerminalJSONTree(text: content.lines, outline: outline), true)
                }
                // A database opens on its table list (Esc shows the overview, o the list again).
                if case .normal = mode, model.card?.family == .database, !model.archiveEntries.isEmpty,
                   listedDatabases.insert(file).inserted {
                    mode = .entries(TerminalEntryList(entries: model.archiveEntries))
                }
                if startsPrinting, case .normal = mode {
                    startsPrinting = false
                    startPrinting()
                }
            case .page(let job, let result) where job.purpose == .indexSheet:
                if case .success(let pixels) = result { tileImages.insert(pixels.image, for: Self.key(job)) } else {
                    model.noteVanished(file: job.file)
                }
                tilesFailed.insert(job.file)
                changed = true
            case .frame:
                continue  // the terminal shows an animation's first frame (it asks for no other)
            case .page(let job, let result):
                guard job.purpose == .view else { continue }
                let key = Self.key(job)
                switch result {
                case .success(let pixels): pages.insert(pixels.image, for: key)
                case .failure(let problem): failedPages[key] = problem.message
                }
                if job.file == model.fileIndex, job.page == model.page { changed = true }
            case .found:
                // The count in the status line, the match marked, or the view moved to it.
                changed = true
            case .finished(let file):
                // Laid out: the same pages; the status line loses "laying out…".
                if file == model.fileIndex { changed = true }
            case .pageText(let file, let page):
                if file == model.fileIndex, page == copyWaiting {
                    copyWaiting = nil
                    copyText()
                    changed = true
                }
            }
        }
        return changed
    }

    private static func key(_ job: PageRenderJob) -> PageCache.Key {
        PageCache.Key(file: job.file, page: job.page, width: job.width, height: job.height)
    }

    // MARK: Keys

    /// Applies one key; returns an exit status when the viewer should close.
    private func handle(_ key: TerminalKey) -> Int32? {
        if key == .control("c") { return 130 }
        switch mode {
        case .goTo(let typed): handleGoTo(key, typed: typed); return nil
        case .find(let typed): handleFind(key, typed: typed); return nil
        case .tiles(let selected): return handleTiles(key, selected: selected)
        case .entries(var list):
            if key == .character("q") { return 0 }
            switch list.handle(key) {
            case .none: mode = .entries(list)
            case .close: mode = .normal
            case .open(let entry):
                mode = .normal
                let archive = model.fileIndex
                if let problem = model.openArchiveEntry(entry) {
                    message = ("\(entry.path): \(problem.message)", true)
                } else {
                    openedFromList = (file: model.fileIndex, archive: archive, list: list)
                }
            }
            return nil
        case .contents(var list):
            if key == .character("q") { return 0 }
            switch list.handle(key) {
            case .none: mode = .contents(list)
            case .close: mode = .normal
            case .go(let index):
                mode = .normal
                if let problem = model.goTo(contentsEntry: index) { message = (problem, false) }
            }
            return nil
        case .password(let typed): handlePassword(key, typed: typed); return nil
        case .printing(let form): handlePrint(key, form: form); return nil
        case .help:
            // Any key closes the help screen; q and Esc only close it.
            mode = .normal
            return nil
        case .normal: break
        }
        message = nil
        guard let viewerKey = Self.viewerKey(key),
              let command = ViewerCommand.command(for: viewerKey, in: .terminal, findActive: model.find.isActive) else { return nil }
        return perform(command, key: viewerKey)
    }

    /// The table's name for a terminal key, or nil for keys the table does not name.
    static func viewerKey(_ key: TerminalKey) -> ViewerKey? {
        switch key {
        case .character(" "): ViewerKey(.space)
        case .character(let character): .character(character)
        case .control(let character): .character(character, control: true)
        case .enter: ViewerKey(.enter)
        case .escape: ViewerKey(.escape)
        case .tab: ViewerKey(.tab)
        case .up: ViewerKey(.up)
        case .down: ViewerKey(.down)
        case .left: ViewerKey(.left)
        case .right: ViewerKey(.right)
        case .pageUp: ViewerKey(.pageUp)
        case .pageDown: ViewerKey(.pageDown)
        case .home: ViewerKey(.home)
        case .end: ViewerKey(.end)
        case .shiftUp: ViewerKey(.up, shift: true)
        case .shiftDown: ViewerKey(.down, shift: true)
        case .shiftLeft: ViewerKey(.left, shift: true)
        case .shiftRight: ViewerKey(.right, shift: true)
        case .backTab, .backspace, .delete, .unknown: nil
        }
    }

    /// The JSON tree of a file (made when it opened), and whether it is shown or its text is.
    private var jsonTree: (file: Int, tree: TerminalJSONTree, shown: Bool)?

    /// The JSON tree when the current file's is on screen.
    private var shownTree: TerminalJSONTree? {
        guard let jsonTree, jsonTree.shown, jsonTree.file == model.fileIndex, case .text = model.content else { return nil }
        return jsonTree.tree
    }

    /// Carries out a command on the JSON tree on screen (or shows the tree, for its own
    /// commands); false when the command is not the tree's.
    private func performInTree(_ command: ViewerCommand, key: ViewerKey) -> Bool {
        let treeCommands: Set<ViewerCommand> = [.tree, .foldNode, .foldAll, .unfoldAll, .copyNodePath]
        if shownTree == nil, treeCommands.contains(command) {
            guard let outline = model.jsonOutline, case .text(let content) = model.content else {
                message = ("only a JSON document is shown as a tree", false)
                return true
            }
            if jsonTree?.file != model.fileIndex {
                jsonTree = (model.fileIndex, TerminalJSONTree(text: content.lines, outline: outline), true)
            }
            jsonTree?.shown = true
            if command == .tree { return true }
        }
        guard var tree = shownTree else { return false }
        tree.visibleRows = layout.contentRows
        let page = max(1, layout.contentRows - 1)
        switch command {
        case .close where key.base == .escape:
            jsonTree?.shown = false
            return true
        case .tree: break
        case .lineDown: tree.move(by: 1)
        case .lineUp: tree.move(by: -1)
        case .nextScreen: tree.move(by: page)
        case .previousScreen: tree.move(by: -page)
        case .firstPage: tree.moveToStart()
        case .lastPage: tree.moveToEnd()
        case .foldNode:
            if !tree.toggle() { message = ("nothing to fold here", false) }
        case .foldAll: tree.foldAll(true)
        case .unfoldAll: tree.foldAll(false)
        case .copyNodePath:
            let path = tree.path
            session.write(Array("\u{1B}]52;c;\(Data(path.utf8).base64EncodedString())\u{07}".utf8))
            message = ("copied \(path) to the terminal's clipboard", false)
        default:
            return false
        }
        jsonTree?.tree = tree
        // The status line's "line N of M" is the cursor's line.
        model.scroll(by: tree.line - model.position)
        return true
    }

    /// Databases whose table list was shown when they opened (once per file).
    private var listedDatabases: Set<Int> = []

    /// A file opened from an archive's list (`o`, Enter): Esc goes back to the list.
    private var openedFromList: (file: Int, archive: Int, list: TerminalEntryList)?

    /// Carries out a command of the viewer-command table; an exit status when the viewer closes.
    private func perform(_ command: ViewerCommand, key: ViewerKey) -> Int32? {
        if performInTree(command, key: key) { return nil }
        let isText: Bool
        if case .text = model.content { isText = true } else { isText = false }
        switch command {
        case .close:
            // Esc backs out one level (a file opened from an archive's list goes back to the
            // list); q, and Esc at the top, close the viewer.
            if key.base == .escape, let opened = openedFromList, opened.file == model.fileIndex {
                openedFromList = nil
                model.selectFile(opened.archive)
                mode = .entries(opened.list)
                return nil
            }
            return 0
        case .help:
            mode = .help
        case .endFind:
            model.stopFind()
        case .find:
            switch model.content {
            case .pages, .text:
                if model.commandContext.hasText { mode = .find("") } else { message = ("\(model.fileName) has no text to find", false) }
            case .opening: message = ("\(model.fileName) is still opening", false)
            case .problem(let problem): message = (problem.message, true)
            }
        case .nextMatch:
            if !model.findNext() { message = (model.findText, false) }
        case .previousMatch:
            if !model.findPrevious() { message = (model.findText, false) }
        case .nextScreen:
            if isText { model.scroll(by: max(1, textLinesShown - 1)) } else { turn(1) }
        case .previousScreen:
            if isText { model.scroll(by: -max(1, textLinesShown - 1)) } else { turn(-1) }
        case .lineDown:
            if isText { model.scroll(by: 1) } else if !model.pan(dx: 0, dy: 0.25) { turn(1) }
        case .lineUp:
            if isText { model.scroll(by: -1) } else if !model.pan(dx: 0, dy: -0.25) { turn(-1, atBottom: true) }
        case .firstPage: model.firstPage()
        case .lastPage: model.lastPage()
        case .goTo:
            if case .problem(let problem) = model.content {
                message = (problem.message, true)
            } else if case .character(let digit) = key.base {
                mode = .goTo(String(digit))
            }
        case .nextFile: switchFile(model.nextFile(), last: "this is the last file")
        case .previousFile: switchFile(model.previousFile(), last: "this is the first file")
        case .panLeft where shownTable != nil:
            if tableColumn > 0 { tableColumn -= 1 } else { message = ("this is the first column", false) }
        case .panRight where shownTable != nil:
            if tableColumn + 1 < shownTable!.columnStarts.count { tableColumn += 1 } else { message = ("this is the last column", false) }
        case .panLeft: model.pan(dx: -0.25, dy: 0)
        case .panRight: model.pan(dx: 0.25, dy: 0)
        case .sortColumn:
            if let problem = model.sortTable(column: tableColumn) { message = (problem, false) }
        case .info: showInfo.toggle()
        case .zoomIn:
            if !model.zoomIn() { message = (isText ? "text is shown as text: zoom is for pages" : "zoomed in as far as it goes", false) }
        case .zoomOut: model.zoomOut()
        case .zoomToFit: model.zoomToFit()
        case .print: startPrinting()
        case .copy: copyText()
        case .copyPath: copyPath()
        case .openEntry:
            let entries = model.archiveEntries
            if entries.isEmpty {
                message = (model.card?.family == .archive ? "no file in this archive can be opened" : "o opens a file from an archive", false)
            } else {
                mode = .entries(TerminalEntryList(entries: entries))
            }
        case .indexSheet:
            if model.fileCount > 1 {
                mode = .tiles(model.fileIndex)
                model.openAllForIndex()
            } else {
                message = ("only one file", false)
            }
        case .sidebar:
            let contents = model.contents
            if contents.isEmpty {
                message = ("C lists a book's contents; \(model.fileName) has none (the terminal has no page thumbnails)", false)
            } else {
                mode = .contents(TerminalContentsList(contents: contents, line: model.position))
            }
        case .develop:
            if model.toggleDevelop() {
                message = (model.isDeveloped ? "developing the sensor data at full size… (D again: the camera's preview)" : "the camera's preview", false)
            } else {
                message = ("not a camera RAW photo: nothing to develop", false)
            }
        case .copyPageImage, .selectAll, .tree, .foldNode, .foldAll, .unfoldAll, .copyNodePath, .markup, .undo, .redo, .deleteAnnotation,
             .playPause, .nextFrame, .previousFrame:
            break
        }
        // Enter on a file that needs its password asks for it.
        if key.base == .enter, model.problem?.needsPassword == true { mode = .password("") }
        return nil
    }

    /// The page whose text `y` waits for (it is read in the worker first).
    private var copyWaiting: Int?

    /// `y`: the page's text (text files: the lines on the screen) to the terminal's clipboard
    /// with OSC 52 — where the terminal allows programs to set it (tmux: `set-clipboard on`).
    private func copyText() {
        let text: String
        let what: String
        switch model.content {
        case .pages:
            let page = model.page
            switch model.copyableText(page: page) {
            case .success(let pageText):
                text = pageText
                what = "page \(page + 1)'s text"
            case .failure(let problem):
                if model.pageText(page) == nil {
                    copyWaiting = page
                    model.wantText(pages: [page])
                    message = ("reading page \(page + 1)'s text…", false)
                } else {
                    message = ("not copied: \(problem.message)", true)
                }
                return
            }
        case .text(let content):
            let lines = content.lines.dropFirst(model.position).prefix(textLinesShown)
            text = lines.joined(separator: "\n") + "\n"
            what = lines.count == 1 ? "1 line" : "\(lines.count) lines"
        case .opening, .problem:
            message = ("nothing to copy", false)
            return
        }
        let encoded = Data(text.utf8).base64EncodedString()
        guard encoded.utf8.count <= Self.maximumClipboardBytes else {
            message = ("not copied: \(what) is too long for the terminal's clipboard", true)
            return
        }
        session.write(Array("\u{1B}]52;c;\(encoded)\u{07}".utf8))
        let count = text.count
        message = ("copied \(what) (\(count) character\(count == 1 ? "" : "s")) to the terminal's clipboard", false)
    }

    /// `Y`: the file's absolute path to the terminal's clipboard with OSC 52 (as `y` copies
    /// text): to paste into a mail, a chat or another shell.
    private func copyPath() {
        let path = String(decoding: FileURI.canonicalPath(model.path.bytes) ?? model.path.bytes, as: UTF8.self)
        session.write(Array("\u{1B}]52;c;\(Data(path.utf8).base64EncodedString())\u{07}".utf8))
        message = ("copied the path of \(model.fileName) to the terminal's clipboard", false)
    }

    /// Largest OSC 52 payload sent (base64 bytes): terminals refuse or cut longer ones.
    static let maximumClipboardBytes = 1 << 20

    private func turn(_ step: Int, atBottom: Bool = false) {
        let moved = step > 0 ? model.nextPage() : model.previousPage()
        if moved, atBottom { model.pan(dx: 0, dy: 1) }
    }

    private func switchFile(_ moved: Bool, last: String) {
        if !moved { message = (model.fileCount == 1 ? "only one file" : last, false); return }
        enterPasswordPromptIfNeeded()
    }

    private func enterPasswordPromptIfNeeded() {
        if model.problem?.needsPassword == true, !passwordDeclined.contains(model.fileIndex) {
            if model.problem?.kind == .wrongPassword { message = ("wrong password", true) } else { message = nil }
            mode = .password("")
        } else if message?.text == "unlocking…" {
            message = model.problem == nil ? ("unlocked", false) : nil
        }
    }

    private func handleGoTo(_ key: TerminalKey, typed: String) {
        switch key {
        case .escape: mode = .normal
        case .backspace: mode = .goTo(String(typed.dropLast()))
        case .character(let character) where character.isASCII && character.isNumber && typed.count < 9:
            mode = .goTo(typed + String(character))
        // Enter, or g as in less (`5g`), goes.
        case .enter, .character("g"):
            mode = .normal
            if let number = Int(typed), let problem = model.goTo(number) { message = (problem, true) }
        default: break
        }
    }

    /// Keys on the tiles: arrows move, Enter opens the selected file, t or Esc go back, q quits.
    private func handleTiles(_ key: TerminalKey, selected: Int) -> Int32? {
        let columns = tileColumns
        func move(_ step: Int) { mode = .tiles(max(0, min(model.fileCount - 1, selected + step))) }
        switch key {
        case .character("q"): return 0
        case .escape, .character("t"): mode = .normal
        case .left, .character("h"): move(-1)
        case .right, .character("l"): move(1)
        case .up, .character("k"): move(-columns)
        case .down, .character("j"): move(columns)
        case .home: mode = .tiles(0)
        case .end: mode = .tiles(model.fileCount - 1)
        case .enter:
            mode = .normal
            model.want([], for: .indexSheet)
            if model.selectFile(selected) { enterPasswordPromptIfNeeded() }
        default: break
        }
        return nil
    }

    /// Tiles' first pages, bounded.
    private var tileImages = PageCache(byteLimit: 8 << 20)
    /// Files whose tile came back (drawn or failed): not asked for again.
    private var tilesFailed: Set<Int> = []
    static let tileWidth = 26, tileHeight = 12

    private var tileColumns: Int { max(1, layout.contentColumns / Self.tileWidth) }

    /// The index sheet in the terminal: a tile per file — its first page in half-block cells
    /// (or its type's glyph), name, kind and size, or why it cannot be shown.
    private func drawTiles(selected: Int, into out: inout String) {
        model.openAllForIndex()
        let columns = tileColumns
        let rows = max(1, layout.contentRows / Self.tileHeight)
        let firstRow = max(0, selected / columns - rows + 1)
        var wanted: [PageRenderJob] = []
        for entry in model.indexEntries {
            let row = entry.file / columns - firstRow, column = entry.file % columns
            guard row >= 0, row < rows else { continue }
            let top = layout.contentTop + row * Self.tileHeight, left = layout.contentLeft + column * Self.tileWidth
            let thumbRows = Self.tileHeight - 3
            var drewPicture = false
            if entry.hasPages, let job = model.indexTileJob(file: entry.file, fitting: (Self.tileWidth - 2, thumbRows * 2)) {
                if let image = tileImages.image(for: Self.key(job)) {
                    let lines = TerminalGraphics.halfBlocks(image).split(separator: 0x0A, omittingEmptySubsequences: false)
                    let indent = max(0, (Self.tileWidth - 2 - image.width) / 2)
                    for (index, line) in lines.prefix(thumbRows).enumerated() where !line.isEmpty {
                        out += at(top + index, left + 1 + indent) + String(decoding: line, as: UTF8.self) + "\u{1B}[0m"
                    }
                    drewPicture = true
                } else if !tilesFailed.contains(entry.file) {
                    wanted.append(job)
                }
            }
            // A text file's tile is its first lines, as text (dimmed), not a glyph.
            if !drewPicture, !entry.firstLines.isEmpty {
                for (index, line) in entry.firstLines.prefix(thumbRows).enumerated() {
                    let shown = TerminalText.clip(TerminalText.shown(line.split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "  ")), width: Self.tileWidth - 2)
                    out += at(top + index, left + 1) + (styled ? "\u{1B}[2m" : "") + shown + "\u{1B}[0m"
                }
                drewPicture = true
            }
            if !drewPicture {
                let glyph = entry.problem != nil ? "⚠" : Self.glyph(entry.card?.family)
                out += at(top + thumbRows / 2, left + Self.tileWidth / 2 - 1) + glyph
            }
            let name = TerminalText.clip(TerminalText.shown(entry.name), width: Self.tileWidth - 2)
            let isSelected = entry.file == selected
            out += at(top + thumbRows, left + 1) + (isSelected ? (styled ? "\u{1B}[7m" : "▸") : "") + name + "\u{1B}[0m"
            out += at(top + thumbRows + 1, left + 1) + TerminalText.clip(TerminalText.shown(entry.detail), width: Self.tileWidth - 2)
        }
        model.want(wanted, for: .indexSheet)
    }

    private func handleFind(_ key: TerminalKey, typed: String) {
        switch key {
        case .escape: mode = .normal
        case .backspace:
            if typed.isEmpty { mode = .normal } else { mode = .find(String(typed.dropLast())) }
        case .character(let character) where typed.utf8.count < 256: mode = .find(typed + String(character))
        case .enter:
            mode = .normal
            if let problem = model.find(typed) { message = (problem, true) }
        default: break
        }
    }

    private func handlePassword(_ key: TerminalKey, typed: String) {
        switch key {
        case .escape:
            mode = .normal
            passwordDeclined.insert(model.fileIndex)
        case .backspace: mode = .password(String(typed.dropLast()))
        case .character(let character) where typed.count < 256: mode = .password(typed + String(character))
        case .enter:
            // The worker opens the file again with it; its answer asks again if it was wrong.
            model.unlock(password: typed)
            mode = .normal
            message = ("unlocking…", false)
        default: break
        }
    }

    private func startPrinting() {
        model.refreshActions()
        let action = model.printAction
        guard action.isAvailable else {
            message = ("cannot print: \(action.reason ?? "printing is not available")", true)
            return
        }
        do {
            mode = .printing(TerminalPrintForm(sheet: try model.makePrintSheet()))
        } catch {
            message = ("cannot print: \(error)", true)
        }
    }

    private func handlePrint(_ key: TerminalKey, form: TerminalPrintForm) {
        switch key {
        case .escape:
            mode = .normal
            message = ("not printed", false)
        case .enter:
            if let (field, problem) = form.sheet.firstProblem {
                form.focus = field
                form.error = problem
                return
            }
            message = ("sending to \(form.sheet.selected.name)…", false)
            draw()
            if let path = form.sheet.saveAsPDF {
                do {
                    let sides = try form.sheet.saveAsPDFFile()
                    mode = .normal
                    message = ("Saved \(sides) side\(sides == 1 ? "" : "s") to \(path)", false)
                } catch {
                    form.error = (error as? PrintError)?.message ?? "\(error)"
                    message = nil
                }
                return
            }
            do {
                let job = try form.sheet.submit()
                let sent = "Sent to \(job.destination) — job \(job.id) (\(job.requestID))"
                if form.sheet.bookletPass == .even {
                    // A booklet on a one-sided printer: the form stays for the backs.
                    message = (sent + " — the fronts", false)
                } else {
                    mode = .normal
                    message = (sent, false)
                }
            } catch {
                form.error = (error as? PrintError)?.message ?? "\(error)"
                message = nil
            }
        case .control("r"):
            do {
                try form.sheet.rememberForPrinter()
                form.error = nil
                message = ("Remembered for \(form.sheet.selected.name): paper, sides, colour, scaling, pages per side", false)
            } catch {
                form.error = error.message
            }
        default:
            _ = form.handle(key)
        }
    }

    // MARK: Layout

    private func computeLayout() {
        let size = session.size()
        var l = Layout()
        l.columns = size.columns
        l.rows = size.rows
        l.contentTop = 1
        l.contentLeft = 1
        l.contentColumns = size.columns
        l.contentRows = max(1, size.rows - 1)
        if case .printing(let form) = mode {
            let rows = min(form.lines(width: size.columns).count + 1, max(1, l.contentRows - 3))
            l.form = (top: size.rows - rows, rows: rows)
            l.contentRows = max(1, l.contentRows - rows)
        }
        if showInfo {
            if size.columns >= 90 {
                let width = 38
                l.panel = (top: 1, left: size.columns - width + 1, columns: width, rows: l.contentRows)
                l.contentColumns = size.columns - width - 1
            } else {
                let rows = min(9, max(1, l.contentRows / 2))
                l.panel = (top: 1, left: 1, columns: size.columns, rows: rows)
                l.contentTop = rows + 2
                l.contentRows = max(1, l.contentRows - rows - 1)
            }
        }
        layout = l
    }

    private var cellSize: (width: Int, height: Int) {
        if let width = graphics.cellWidth, let height = graphics.cellHeight { return (width, height) }
        let size = session.size()
        if size.pixelWidth > 0, size.pixelHeight > 0 {
            return (max(1, size.pixelWidth / size.columns), max(1, size.pixelHeight / size.rows))
        }
        return (8, 16)
    }

    /// The pixel box the page area holds.
    private func pixelBox() -> (width: Int, height: Int) {
        switch graphics.method {
        case .blocks: return (layout.contentColumns, layout.contentRows * 2)
        default:
            let cell = cellSize
            return (min(layout.contentColumns * cell.width, 4096), min(layout.contentRows * cell.height, 4096))
        }
    }

    // MARK: Drawing

    private func draw() {
        computeLayout()
        var out = ""
        if graphics.method == .kitty && !graphics.insideTmux { out += "\u{1B}_Ga=d,q=2\u{1B}\\" }
        out += "\u{1B}[0m\u{1B}[2J"
        var image: [UInt8] = []
        if case .tiles(let selected) = mode {
            drawTiles(selected: selected, into: &out)
        } else if case .help = mode {
            drawHelp(into: &out)
        } else if case .entries(var list) = mode {
            list.visibleRows = layout.contentRows
            mode = .entries(list)
            for (index, line) in list.lines(width: layout.contentColumns, rows: layout.contentRows, styled: styled).enumerated() {
                out += at(layout.contentTop + index, layout.contentLeft) + line + "\u{1B}[0m"
            }
        } else if case .contents(var list) = mode {
            list.visibleRows = layout.contentRows - 1
            mode = .contents(list)
            for (index, line) in list.lines(width: layout.contentColumns, rows: layout.contentRows, styled: styled).enumerated() {
                out += at(layout.contentTop + index, layout.contentLeft) + line + "\u{1B}[0m"
            }
        } else {
        switch model.content {
        case .opening: drawOpening(into: &out)
        case .pages: image = drawPage(into: &out)
        case .text(let text):
            if var tree = shownTree {
                tree.visibleRows = layout.contentRows
                jsonTree?.tree = tree
                for (index, line) in tree.lines(width: layout.contentColumns, rows: layout.contentRows, styled: styled).enumerated() {
                    out += at(layout.contentTop + index, layout.contentLeft) + line + "\u{1B}[0m"
                }
            } else {
                drawText(text, into: &out)
            }
        case .problem(let problem): drawProblem(problem, into: &out)
        }
        }
        if let panel = layout.panel { drawInfo(panel, into: &out) }
        if let form = layout.form, case .printing(let printForm) = mode {
            out += at(form.top, 1) + "\u{1B}[0m" + String(repeating: "─", count: layout.columns)
            for (index, line) in printForm.lines(width: layout.columns).prefix(form.rows - 1).enumerated() {
                out += at(form.top + 1 + index, 1) + TerminalText.clip(line, width: layout.columns) + "\u{1B}[0m"
            }
        }
        out += at(layout.rows, 1) + statusLine()
        session.write(Array(out.utf8) + image)
    }

    private func at(_ row: Int, _ column: Int) -> String { "\u{1B}[\(row);\(column)H" }

    /// `?`: the keys of the viewer-command table that apply to the file on screen, a line each.
    private func drawHelp(into out: inout String) {
        let lines = ViewerCommand.helpLines(for: .terminal, in: model.commandContext)
        let keyWidth = min(24, (lines.map { TerminalText.width($0.keys) }.max() ?? 0) + 2)
        var row = layout.contentTop
        out += at(row, layout.contentLeft + 1) + (styled ? "\u{1B}[1m" : "") + "Keys for \(TerminalText.clip(model.fileName, width: layout.contentColumns - 12))"
            + "\u{1B}[0m"
        row += 2
        for line in lines where row < layout.contentTop + layout.contentRows {
            let keys = line.keys + String(repeating: " ", count: max(0, keyWidth - TerminalText.width(line.keys)))
            out += at(row, layout.contentLeft + 1) + TerminalText.clip(keys + line.help, width: layout.contentColumns - 2)
            row += 1
        }
    }

    /// The file is being opened in the worker.
    private func drawOpening(into out: inout String) {
        let line = TerminalText.clip(TerminalText.shown("Opening \(model.fileName)…"), width: layout.contentColumns - 2)
        out += at(layout.contentTop + layout.contentRows / 2, layout.contentLeft + max(0, (layout.contentColumns - TerminalText.width(line)) / 2))
            + line
    }

    /// Draws the page if it has come back from the worker, else asks for it (and the next one)
    /// and says so; returns image bytes to send after the text (positioned already).
    private func drawPage(into out: inout String) -> [UInt8] {
        // Inside tmux, until the terminal outside answered: the page's size in pixels and how
        // it is sent depend on what that terminal can draw.
        if graphics.awaitsOuterTerminal {
            let line = "rendering page \(model.page + 1)…"
            out += at(layout.contentTop + layout.contentRows / 2, layout.contentLeft + max(0, (layout.contentColumns - line.count) / 2)) + line
            return []
        }
        let box = pixelBox()
        guard let job = model.pageJob(model.page, fitting: box) else { return [] }
        let key = Self.key(job)
        if let problem = failedPages[key] {
            out += at(layout.contentTop + layout.contentRows / 2, layout.contentLeft + 2)
                + TerminalText.clip(TerminalText.shown("This page cannot be shown: \(problem)"), width: layout.contentColumns - 4)
            message = message ?? ("page \(model.page + 1): \(problem)", true)
            model.want([])
            return []
        }
        // The page, then (at fit) the next one ahead: Page Down usually finds it ready.
        var wanted: [PageRenderJob] = []
        if pages.image(for: key) == nil { wanted.append(job) }
        if model.zoom == 1, let next = model.pageJob(model.page + 1, fitting: box), pages.image(for: Self.key(next)) == nil,
           failedPages[Self.key(next)] == nil {
            wanted.append(next)
        }
        model.want(wanted)
        guard let rendered = pages.image(for: key) else {
            let line = "rendering page \(model.page + 1)…"
            out += at(layout.contentTop + layout.contentRows / 2, layout.contentLeft + max(0, (layout.contentColumns - line.count) / 2)) + line
            return []
        }
        let view = Self.crop(markMatches(on: rendered, page: model.page), to: box, pan: model.pan)
        switch graphics.method {
        case .blocks:
            let rows = TerminalGraphics.halfBlocks(view).split(separator: 0x0A, omittingEmptySubsequences: false)
            let left = layout.contentLeft + max(0, (layout.contentColumns - view.width) / 2)
            for (index, row) in rows.prefix(layout.contentRows).enumerated() where !row.isEmpty {
                out += at(layout.contentTop + index, left) + String(decoding: row, as: UTF8.self)
            }
            return []
        case .kitty, .iterm, .sixel:
            let cell = cellSize
            let columns = (view.width + cell.width - 1) / cell.width
            let left = layout.contentLeft + max(0, (layout.contentColumns - columns) / 2)
            var bytes = Array(at(layout.contentTop, left).utf8)
            switch graphics.method {
            case .kitty where graphics.insideTmux:
                // Text tmux keeps in the pane, the picture sent once through its passthrough.
                let rows = min(layout.contentRows, (view.height + cell.height - 1) / cell.height, KittyPlaceholders.diacritics.count)
                placementID = placementID % 254 + 1
                bytes = KittyPlaceholders.deleteAll + KittyPlaceholders.transmit(view, id: placementID, columns: columns, rows: rows)
                for row in 0..<rows {
                    bytes += Array((at(layout.contentTop + row, left) + KittyPlaceholders.row(row, columns: columns, id: placementID)).utf8)
                }
            case .kitty: bytes += Self.kitty(view)
            case .iterm:
                if let png = try? PNGEncoder.encode(view) {
                    bytes += Array("\u{1B}]1337;File=inline=1;size=\(png.count);width=\(view.width)px;height=\(view.height)px;preserveAspectRatio=1:\(Data(png).base64EncodedString())\u{07}".utf8)
                }
            default: bytes += TerminalGraphics.sixel(view)
            }
            return bytes
        }
    }

    /// The page with the search's matches on it marked (a yellow wash; the current one orange).
    private func markMatches(on image: RenderedImage, page: Int) -> RenderedImage {
        guard model.find.file == model.fileIndex, let size = model.pageSize(page) else { return image }
        let matches = model.find.matches(onPage: page)
        guard !matches.isEmpty else { return image }
        let current = model.find.currentMatch
        var marked = [(box: TextBox, isCurrent: Bool)]()
        for match in matches { for box in match.boxes { marked.append((box, match == current)) } }
        return Self.mark(image, boxes: marked, scaleX: Double(image.width) / size.width, scaleY: Double(image.height) / size.height)
    }

    /// `image` with each box (in page points, times the scale) tinted.
    static func mark(_ image: RenderedImage, boxes: [(box: TextBox, isCurrent: Bool)], scaleX: Double, scaleY: Double) -> RenderedImage {
        var pixels = image.pixels
        for (box, isCurrent) in boxes {
            // At least a cell's worth in each direction, so small text still shows its mark.
            let x0 = max(0, Int((box.x * scaleX).rounded(.down)) - 1), x1 = min(image.width, Int((box.maxX * scaleX).rounded(.up)) + 1)
            let y0 = max(0, Int((box.y * scaleY).rounded(.down)) - 1), y1 = min(image.height, Int((box.maxY * scaleY).rounded(.up)) + 1)
            guard x0 < x1, y0 < y1 else { continue }
            let tint: (r: Int, g: Int, b: Int) = isCurrent ? (255, 150, 0) : (255, 230, 0)
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let offset = (y * image.width + x) * 4
                    // Multiply: dark text stays dark, the paper takes the colour.
                    pixels[offset] = UInt8(Int(pixels[offset]) * tint.r / 255)
                    pixels[offset + 1] = UInt8(Int(pixels[offset + 1]) * tint.g / 255)
                    pixels[offset + 2] = UInt8(Int(pixels[offset + 2]) * tint.b / 255)
                }
            }
        }
        return RenderedImage(width: image.width, height: image.height, pixels: pixels)
    }

    /// The image number of the last kitty placement through tmux (1–254, in turn).
    private var placementID = 0

    /// Kitty graphics, raw RGBA in 4 kB chunks, cursor left where it was.
    static func kitty(_ image: RenderedImage) -> [UInt8] {
        TerminalGraphics.kittyChunks(image.pixels) { more in "a=T,f=32,s=\(image.width),v=\(image.height),C=1,q=2,m=\(more)" }
    }

    /// The part of a zoomed page that fits `box`, `pan` choosing where.
    static func crop(_ image: RenderedImage, to box: (width: Int, height: Int), pan: (x: Double, y: Double)) -> RenderedImage {
        guard image.width > box.width || image.height > box.height else { return image }
        let width = min(image.width, box.width), height = min(image.height, box.height)
        let x0 = Int((Double(image.width - width) * pan.x).rounded()), y0 = Int((Double(image.height - height) * pan.y).rounded())
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let from = ((y0 + y) * image.width + x0) * 4
                    let to = y * width * 4
                    for i in 0..<(width * 4) { target[to + i] = source[from + i] }
                }
            }
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    private func drawText(_ text: TextContent, into out: inout String) {
        if let table = text.table { return drawTable(text, table, into: &out) }
        let gutter = String(max(1, text.lineCount)).count
        let width = max(1, layout.contentColumns - gutter - 2)
        var row = 0
        var line = model.position
        // A Markdown file's line kinds and runs: drawn in colour (not with NO_COLOR).
        let styles = model.markdownStyles
        while row < layout.contentRows, line < text.lineCount {
            let pieces = TerminalText.wrap(text.lines[line], width: width)
            let marks = model.find.file == model.fileIndex ? model.find.matches(onPage: line).compactMap { match in
                match.characters.map { ($0, match == model.find.currentMatch) }
            } : []
            var offset = 0
            for (index, piece) in pieces.enumerated() where row < layout.contentRows {
                let number = index == 0 ? String(line + 1) : ""
                let padded = String(repeating: " ", count: gutter - number.count) + number
                out += at(layout.contentTop + row, layout.contentLeft)
                    + (styled ? "\u{1B}[2m\(padded)\u{1B}[0m" : padded) + "  "
                    + (styled && marks.isEmpty && styles?.lines.indices.contains(line) == true
                       ? TerminalText.styled(piece, from: offset, line: styles!.lines[line])
                       : TerminalText.mark(piece, from: offset, marks: marks))
                offset += piece.unicodeScalars.count
                row += 1
            }
            line += 1
        }
        textLinesShown = max(1, line - model.position)
        if text.lineCount == 0 {
            out += at(layout.contentTop, layout.contentLeft) + "(empty)"
        }
    }

    /// A table: its header frozen on top, a row a line (never wrapped), from the leftmost column
    /// in view; a row number in the gutter. The current match's column is brought into view.
    private func drawTable(_ text: TextContent, _ table: TableLayout, into out: inout String) {
        let gutter = String(max(1, table.firstRow + text.lineCount)).count
        let width = max(1, layout.contentColumns - gutter - 2)
        tableColumn = max(0, min(tableColumn, table.columnStarts.count - 1))
        if let match = model.find.currentMatch, model.find.file == model.fileIndex, let characters = match.characters,
           !table.columnStarts.isEmpty {
            let start = table.columnStarts[tableColumn]
            if characters.lowerBound < start || characters.upperBound > start + width {
                tableColumn = table.columnStarts.lastIndex { $0 <= characters.lowerBound } ?? 0
            }
        }
        let start = table.columnStarts.isEmpty ? 0 : table.columnStarts[tableColumn]
        func slice(_ line: String) -> String {
            String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(start).prefix(width)))
        }
        var row = 0
        for (index, line) in table.header.enumerated() where row < layout.contentRows {
            let shown = TerminalText.shown(slice(line))
            out += at(layout.contentTop + row, layout.contentLeft) + String(repeating: " ", count: gutter + 2)
                + (styled && index == 0 ? "\u{1B}[1m\(shown)\u{1B}[0m" : shown)
            row += 1
        }
        var line = model.position
        while row < layout.contentRows, line < text.lineCount {
            let marks = model.find.file == model.fileIndex ? model.find.matches(onPage: line).compactMap { match in
                match.characters.map { ($0, match == model.find.currentMatch) }
            } : []
            let number = String(table.firstRow + line + 1)
            let padded = String(repeating: " ", count: max(0, gutter - number.count)) + number
            out += at(layout.contentTop + row, layout.contentLeft)
                + (styled ? "\u{1B}[2m\(padded)\u{1B}[0m" : padded) + "  " + TerminalText.mark(slice(text.lines[line]), from: start, marks: marks)
            row += 1
            line += 1
        }
        textLinesShown = max(1, line - model.position)
        if text.lineCount == 0 {
            out += at(layout.contentTop + row, layout.contentLeft) + "(no rows)"
        }
    }

    private func drawProblem(_ problem: RenderProblem, into out: inout String) {
        let middle = layout.contentTop + layout.contentRows / 2 - 1
        let lines = [
            "\(Self.glyph(model.card?.family)) \(model.fileName)",
            problem.message,
            problem.needsPassword ? "Enter: type the password" : "",
        ]
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let clipped = TerminalText.clip(TerminalText.shown(line), width: layout.contentColumns - 2)
            let left = layout.contentLeft + max(0, (layout.contentColumns - TerminalText.width(clipped)) / 2)
            out += at(middle + index, left) + (index == 1 && styled ? "\u{1B}[1;31m\(clipped)\u{1B}[0m" : clipped)
        }
    }

    static func glyph(_ family: DocumentFamily?) -> String {
        switch family {
        case .pdf, .postscript: return "▤"
        case .text: return "≡"
        case .image: return "▣"
        case .svg: return "◇"
        case .officeDocument: return "▦"
        case .ebook: return "▥"
        case .mail: return "✉"
        case .comicBook: return "▧"
        case .font: return "Ꭺ"
        case .archive: return "▩"
        case .video: return "▶"
        case .audio: return "♪"
        default: return "□"
        }
    }

    /// Entries of a book's contents the card lists.
    static let cardContentsEntries = 12

    /// Fields of a PDF's form the card lists.
    static let cardFormFields = 12

    /// A PDF's form on the card: how many fields, the first ones with their values (`quire form`
    /// lists them all and fills them); nothing for a PDF without a form.
    private func formLines() -> [String] {
        guard let form = model.formFacts() else { return [] }
        switch form {
        case .failure(let problem):
            return [TerminalText.shown("Form   cannot be read: \(problem.message)")]
        case .success(let facts) where facts.isXFAOnly:
            return ["Form   XFA only: not supported"]
        case .success(let facts) where facts.fields.isEmpty:
            return []
        case .success(let facts):
            let count = facts.fields.count
            var lines = ["Form   \(count) field\(count == 1 ? "" : "s")"
                         + (facts.fillingForbidden.map { TerminalText.shown(" (cannot be filled: \($0))") } ?? "")]
            for field in facts.fields.prefix(Self.cardFormFields) {
                let value = field.value.map { $0.isEmpty ? "—" : $0 } ?? "—"
                lines.append("       " + TerminalText.shown("\(field.name) (\(field.kind.rawValue)\(field.isReadOnly ? ", read-only" : "")): \(value)"))
            }
            if count > Self.cardFormFields {
                lines.append("       … and \(count - Self.cardFormFields) more (quire form lists them)")
            }
            return lines
        }
    }

    private func drawInfo(_ panel: (top: Int, left: Int, columns: Int, rows: Int), into out: inout String) {
        var lines: [String] = []
        if let card = model.card {
            lines.append("\u{1B}[1m\(Self.glyph(card.family)) \(TerminalText.shown(card.title))\u{1B}[0m")
            if card.title != card.fileName { lines.append(TerminalText.shown(card.fileName)) }
            lines.append("")
            lines.append("Kind   \(TerminalText.shown(card.kind))")
            lines.append("Size   \(card.formattedSize) (\(card.size) bytes)")
            if let pages = card.pages { lines.append("Pages  \(pages)") }
            if let lineCount = card.lines { lines.append("Lines  \(lineCount)") }
            if let width = card.imageWidth, let height = card.imageHeight { lines.append("Image  \(width) × \(height) px") }
            if let author = card.author, !author.isEmpty { lines.append("Author \(TerminalText.shown(author))") }
            for detail in card.details {
                lines.append(TerminalText.shown(detail.label) + String(repeating: " ", count: max(1, 7 - detail.label.count)) + TerminalText.shown(detail.value))
            }
            // A book's contents: the first entries, indented by level (C lists them all).
            let entries = card.contents.entries
            for entry in entries.prefix(Self.cardContentsEntries) {
                lines.append("       " + String(repeating: "  ", count: min(8, max(0, entry.level - 1))) + TerminalText.shown(entry.title))
            }
            if entries.count > Self.cardContentsEntries {
                lines.append("       … and \(entries.count - Self.cardContentsEntries) more (C lists them)")
            }
            lines += formLines()
            lines.append("Type   \(TerminalText.shown(card.mimeType))")
            lines.append("Icon   \(TerminalText.shown(card.iconName))")
        } else {
            lines.append("\u{1B}[1m\(TerminalText.shown(model.fileName))\u{1B}[0m")
        }
        if let problem = model.problem { lines.append("Problem \(TerminalText.shown(problem.message))") }
        let print = model.printAction
        lines.append(TerminalText.shown(print.isAvailable ? "Print  yes — \(print.detail ?? "")" : "Print  no — \(print.reason ?? "")"))
        lines.append("File   \(model.fileText)")
        // Wrap long values inside the panel.
        var rows: [String] = []
        for line in lines {
            rows += line.isEmpty ? [""] : TerminalText.wrap(line, width: max(1, panel.columns - 2))
        }
        for row in 0..<panel.rows {
            let text = row < rows.count ? rows[row] : ""
            let border = panel.left > 1 ? "│ " : " "
            out += at(panel.top + row, panel.left > 1 ? panel.left - 1 : panel.left) + "\u{1B}[0m" + border
                + TerminalText.clip(text, width: panel.columns - 1) + "\u{1B}[0m"
        }
        if panel.left == 1 {
            out += at(panel.top + panel.rows, 1) + String(repeating: "─", count: layout.columns)
        }
    }

    private func statusLine() -> String {
        var left = TerminalText.clip(model.fileName, width: 32)
        let position = model.positionText
        if !position.isEmpty { left += " │ " + position }
        // An animated image shows its first frame here: the status line says it is animated.
        if case .pages = model.content, let animated = model.animationSummary { left += " │ " + animated }
        if case .pages = model.content { left += " │ " + model.zoomText }
        if model.fileCount > 1 { left += " │ file " + model.fileText }
        var right: String
        var isError = false
        switch mode {
        case .tiles(let selected):
            right = "\(model.fileCount) files · \(model.indexEntries[selected].name) · arrows move · Enter open · t back"
        case .entries(let list):
            right = list.status
        case .contents(let list):
            right = list.status
        case .find(let typed):
            right = "Find: \(typed)▏  Enter find · Esc cancel"
        case .goTo(let typed):
            let what: String
            if shownTable != nil { what = "row" } else if case .text = model.content { what = "line" } else { what = "page" }
            right = "Go to \(what): \(typed)▏  Enter go · Esc cancel"
        case .password(let typed):
            right = "Password for \(model.fileName): \(String(repeating: "•", count: typed.count))▏  Enter unlock · Esc cancel"
            if let message { right = message.text + " · " + right; isError = message.isError }
        case .printing:
            right = message?.text ?? "Printing: Tab next field · Enter print · Esc cancel"
        case .help:
            right = "any key: back"
        case .normal:
            if let message {
                right = message.text
                isError = message.isError
            } else if let problem = model.problem {
                right = problem.message + (problem.needsPassword ? " · Enter password" : "") + " · q close"
                isError = true
            } else if model.find.isActive {
                right = "/\(model.find.query): \(model.findText) · n/N next/previous · Esc end search"
            } else if let tree = shownTree {
                right = tree.status
            } else {
                right = keys()
            }
        }
        // Everything in the status line may quote a file (its name, a message, a match): escaped.
        let text = TerminalText.clip(TerminalText.shown(left + " │ " + right), width: layout.columns)
        let padded = text + String(repeating: " ", count: max(0, layout.columns - TerminalText.width(text)))
        guard styled else { return padded }
        return (isError ? "\u{1B}[1;37;41m" : "\u{1B}[7m") + padded + "\u{1B}[0m"
    }

    /// The status line's reminder: the commands that apply to the file on screen (from the
    /// viewer-command table), the most used first, and `?` for the rest.
    private func keys() -> String {
        let context = model.commandContext
        let shown: [(ViewerCommand, String)] = [
            (.close, "q close"), (.help, "? keys"), (.print, "p print"), (.info, "i info"),
            (.nextScreen, "Space/b page"), (.find, "/ find"), (.copy, "y copy text"),
            (.goTo, "1-9 go"), (.zoomIn, "+/- zoom"), (.openEntry, "o open a file"),
            (.nextFile, "←/→ file"), (.indexSheet, "t tiles"),
        ]
        return shown.filter { $0.0.applies(in: context) }.map(\.1).joined(separator: " · ")
    }
}
