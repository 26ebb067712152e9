#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import FoundationEssentials
import Quire
import QuireViewer
import QuireRenderService
import QuireTerminalViewer
import Synchronization
import QuireSystem

struct LookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "look",
        abstract: "Quick Look: page through files full-screen in the terminal, see their cards, and print.",
        discussion: """
            Shows each file full-screen on the terminal's alternate screen: PDFs, PostScript, \
            images, SVG, office documents, fonts (a specimen per face), video (a poster frame, then \
            frames across the duration), audio (its cover, else its tags and waveform) and \
            archives (their listing) as pictures (kitty graphics, iTerm2 images or sixel when the \
            terminal answers that it supports them, else Unicode half-block cells), text, source, \
            Markdown and CSV files as text.

            Keys in the terminal (as in less; ? shows those that apply to the file on screen): \
            \(ViewerCommand.helpParagraph(for: .terminal)). The print form asks printer, copies, \
            pages, paper, orientation, scaling, pages per side, booklet, sides to print, reverse \
            order and Save as PDF inline and shows the job id; on an archive's list s sorts by \
            name, size or date, Enter opens a file as a file of its own, and Escape goes back (from \
            that file, Escape goes back to the list).

            Find: / then a word and Enter searches the file (as literal text, ignoring case and, \
            where the document's text allows, accents), from the page in view round to it; the \
            match is marked and the status line counts ("3 of 17", "No matches"). While a search \
            is on, n and N go to the next and previous match (as in less) and Escape ends the \
            search; without one they move between files as before. The search runs in the \
            worker, a few pages at a time, so keys and pages are answered while it scans. y copies \
            the page's text (a text file: the lines on the screen) to the terminal's clipboard \
            with OSC 52, where the terminal allows it (in tmux: set-clipboard on). With several \
            files, t shows them all as tiles (first page, name, kind, size; a file that vanished \
            says so): arrows move, Enter opens one, t or Escape go back.

            Files are opened and pages rendered in a separate, sandboxed worker process (the \
            render service): a file that crashes the renderer, or keeps it busy past --timeout, \
            costs that file or page (the status line says so), not the viewer or the terminal; \
            keys are answered while a file opens, and moving past a slow file drops it. Reopening a file starts where it was left (page or line, and zoom), kept in \
            $XDG_STATE_HOME/quire/viewer-state.json.

            With a display (WAYLAND_DISPLAY or DISPLAY) and the window viewer installed \
            (PREFIX/libexec/quire/quire-look), the files open in a GTK 4 window instead: the \
            file's card and Open With, Copy, Show in Folder and Print (only when printing can \
            work) in the header; its keys: \(ViewerCommand.helpParagraph(for: .window)); in the \
            search bar Enter and Shift+Enter step through the matches; on a PDF page drag to \
            select text, double click a word, triple click a line; the sidebar shows page \
            thumbnails, a click going to the page; with several files Ctrl+Up (or the header's \
            grid button) shows the index sheet, a grid of them all, where Enter opens one; video \
            and audio play with the header's Play button; an animated GIF or WebP plays at its own \
            pace and loop count (k pauses, . and , step a frame; one with more frames than the \
            pixel limit allows shows its first frame and says so; the terminal shows the first \
            frame and says "animated, N frames, S s"); an archive's list button shows its \
            files, sortable, Enter opening one. Without a display the terminal viewer needs a terminal on standard input \
            and output.

            --print opens the files with the Print sheet already open (the file managers' "Print \
            with Quire…"): printer and its state, copies, page range, sides. Closing a file's \
            sheet opens the next file's; after the last the window closes, as an application \
            started only to print quits. When printing cannot work for a file it opens nothing: \
            one line says why (the reason `quire actions` gives) and the exit status is 65 for a \
            file that cannot be printed, 69 when no printer accepts jobs, 66 for a missing file. \
            A missing file or a folder among the files is refused before anything opens (66). \
            `quire print` prints without asking.
            """)

    @Argument(help: ArgumentHelp("The files to look at.", valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: ArgumentHelp(
        "Serve as the file manager's previewer (org.gnome.NautilusPreviewer on the session bus, as GNOME Sushi): Nautilus's Space shows files in the window.",
        discussion: "Needs a display and the window viewer. Quits after --idle-timeout seconds without a window; D-Bus activation starts it again (see quire integrate --previewer)."))
    var service = false

    @Option(name: .long, help: ArgumentHelp("With --service: seconds without a window before the service quits (default 10).", valueName: "seconds"))
    var idleTimeout: Int = 10

    @Flag(name: .customLong("print"), help: ArgumentHelp(
        "Open the files with the Print sheet already open; when printing cannot work, say why and exit non-zero.",
        discussion: "Closing a file's sheet opens the next file's; the window closes after the last. Without a display, the terminal viewer opens with its print form."))
    var openPrintSheet = false

    @Flag(name: .long, help: "Use the terminal viewer even when there is a display.")
    var terminal = false

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs (else it is asked for).", valueName: "password"))
    var password: String?

    @Flag(name: .long, help: "Do not read or write the resume state (where each file was left).")
    var noResume = false

    /// How the terminal viewer draws pages (`--graphics`).
    enum Graphics: String, ExpressibleByArgument, CaseIterable {
        case kitty, sixel, iterm, cells
    }

    @Option(name: .long, help: ArgumentHelp(
        "Terminal viewer: draw pages with kitty graphics (inside tmux as Unicode placeholders through its passthrough), sixel, iTerm2 images or half-block cells, instead of what the terminal answers.",
        valueName: "kitty|sixel|iterm|cells"))
    var graphics: Graphics?

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Seconds a page may take to render before its renderer is stopped (default 30).", valueName: "seconds"))
    var timeout: Int = Self.defaultTimeout

    /// `--timeout`'s default.
    static let defaultTimeout = 30

    @OptionGroup var spreadsheet: SpreadsheetTextOption

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func validate() throws {
        if service {
            if !files.isEmpty { throw ValidationError("--service takes no files: the file manager sends them.") }
            if terminal { throw ValidationError("--service needs the window, not --terminal.") }
            if idleTimeout < 1 { throw ValidationError("--idle-timeout must be at least 1 second.") }
            if openPrintSheet { throw ValidationError("--service takes no --print: the file manager sends the files.") }
        } else if files.isEmpty { throw ValidationError("Give at least one file.") }
        if timeout < 1 { throw ValidationError("--timeout must be at least 1 second.") }
    }

    func run() throws {
        // Files are opened and pages rendered by this same quire in its render worker, with
        // the same limits.
        let worker = WorkerCommand(executable: ProcessControl.ownExecutable, renderLimits: try limits.renderLimits(),
                                   limits: WorkerLimits(memoryBytes: UInt64(try limits.memoryMiB()) << 20))
        if service {
            try PreviewerServiceLauncher.run(worker: [worker.executable] + worker.arguments, timeout: timeout, idleTimeout: idleTimeout)
            return
        }
        let paths = files.map(RawArguments.path)
        try spreadsheet.requireOffice()
        // Print…: nothing opens when printing cannot work; the reason is the one `actions` gives.
        if openPrintSheet { for path in paths { try Self.checkPrintable(path, limits: limits) } }
        // With a display (and the window installed), the window; else the terminal viewer.
        if !terminal, LookWindowLauncher.hasDisplay, let window = LookWindowLauncher.executable() {
            try Self.checkExist(paths)
            // The window renders through the same worker as the terminal viewer (this quire).
            Terminal.error(LookWindowLauncher.exec(window, paths: paths, password: password, resume: !noResume,
                                                   renderWorker: [worker.executable] + worker.arguments, timeout: timeout,
                                                   printSheet: openPrintSheet, csvAsSpreadsheet: spreadsheet.csvAsSpreadsheet))
            throw ExitStatus.unavailable.exitCode
        }
        guard Terminal.isTerminal(STDIN_FILENO), Terminal.isTerminal(STDOUT_FILENO) else {
            let display = (Terminal.environment("DISPLAY") ?? "").isEmpty == false
                || (Terminal.environment("WAYLAND_DISPLAY") ?? "").isEmpty == false
            if terminal {
                Terminal.error("look --terminal needs a terminal on standard input and output")
            } else if display {
                Terminal.error("look needs a terminal on standard input and output, or the window viewer (quire-look, not installed)")
            } else {
                Terminal.error("look needs a display or a terminal on standard input and output; there is neither")
            }
            throw ExitStatus.unavailable.exitCode
        }
        if Terminal.environment("TERM") == "dumb" {
            Terminal.error("look needs a terminal that can address the cursor (TERM is dumb)")
            throw ExitStatus.unavailable.exitCode
        }
        try Self.checkExist(paths)
        var configuration = ViewerModel.Configuration(
            maximumFileSize: try limits.maximumFileSize(), limits: try limits.renderLimits(), worker: worker,
            renderTimeout: Double(timeout))
        if noResume { configuration.resume = nil }
        configuration.csvAsSpreadsheet = spreadsheet.csvAsSpreadsheet
        signal(SIGPIPE, SIG_IGN)
        let styled = (Terminal.environment("NO_COLOR") ?? "").isEmpty
        let password = password
        let printing = openPrintSheet
        let settings = configuration
        var given = ProcessInfo.processInfo.environment
        if let graphics { given["QUIRE_GRAPHICS"] = graphics.rawValue }
        let environment = given

        // The viewer's key loop gets a thread of its own, not one of Swift's cooperative pool
        // (it blocks in poll(2) between keys).
        let outcome = Mutex<Result<Int32, TerminalSessionError>>(.success(0))
        let thread = JoinableThread(stackSize: 16 << 20) {
            let result = TerminalViewer.run(paths: paths, configuration: settings, password: password, printing: printing,
                                            styled: styled, environment: environment)
            outcome.withLock { $0 = result }
        }
        thread.join()
        switch outcome.withLock({ $0 }) {
        case .failure(let error):
            Terminal.error(error.description)
            throw ExitStatus.ioError.exitCode
        case .success(let status):
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// For --print: whether the file can be printed now. Says why not in one line (the reason
    /// `quire actions` gives) and throws the sysexits status: the file's own (66 missing, 65
    /// damaged), 65 for content that cannot be printed, 69 when no printer accepts jobs.
    static func checkPrintable(_ path: DocumentPath, limits: LimitOptions) throws {
        try checkExist([path])
        let document: Document
        do {
            document = try Document(path: path, maximumFileSize: try limits.maximumFileSize(), limits: try limits.renderLimits(), interpreters: CommandInterpreters.forDocuments)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw PrintFailure.report(error).exitCode
        }
        let interaction = DocumentInteraction(document: document)
        let print = interaction.print
        guard !print.isAvailable else { return }
        Terminal.error("\(path): cannot print: \(print.reason ?? "printing is not available")")
        let status = interaction.printAvailability.error.map(PrintFailure.status) ?? .dataError
        throw status.exitCode
    }

    /// A name that does not exist is a typing mistake: say so before taking the screen.
    static func checkExist(_ paths: [DocumentPath]) throws {
        for path in paths {
            var info = stat()
            if path.withCString({ stat($0, &info) }) != 0 {
                Terminal.error("\(path): \(Errno.current)")
                throw ExitStatus.noInput.exitCode
            }
            // A folder is refused as `info` and `preview` refuse it (66), not shown and then
            // closed with 0.
            if info.st_mode & S_IFMT == S_IFDIR {
                Terminal.error("\(path): is a directory, not a file")
                throw ExitStatus.noInput.exitCode
            }
        }
    }
}
