#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import FoundationEssentials
import Quire
import QuireViewer
import Synchronization
import QuireSystem

struct LookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "look",
        abstract: "Quick Look: page through files full-screen in the terminal, see their cards, and print.",
        discussion: """
            Shows each file full-screen on the terminal's alternate screen: PDFs, PostScript, \
            images, SVG and documents with an embedded preview as pictures (kitty graphics, \
            iTerm2 images or sixel when the terminal answers that it supports them, else Unicode \
            half-block cells), text, source, Markdown and CSV files as text.

            Keys: Space, q or Escape close · Page Down/Page Up, j/k or the arrows turn pages \
            (text: scroll by line and page) · Home/End · g N Enter goes to page (line) N · \
            Right/n and Left/N move between files · i shows the info card · + and - zoom, h/l and \
            the arrows pan a zoomed page, 0 fits · p prints (only shown when printing can work: \
            printer, copies and page range are asked inline and the job id is shown).

            Pages are rendered in a separate worker process: a file that crashes the renderer, \
            or keeps it busy past --timeout, costs that page (the status line says so), not the \
            viewer or the terminal. Reopening a file starts where it was left (page or line, and zoom), kept in \
            $XDG_STATE_HOME/quire/viewer-state.json. Needs a terminal on standard input and \
            output (a window for graphical sessions is not available yet).
            """)

    @Argument(help: ArgumentHelp("The files to look at.", valueName: "file"))
    var files: [String]

    @Flag(name: .long, help: "Use the terminal viewer (the default when standard input and output are a terminal).")
    var terminal = false

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs (else it is asked for).", valueName: "password"))
    var password: String?

    @Flag(name: .long, help: "Do not read or write the resume state (where each file was left).")
    var noResume = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Seconds a page may take to render before its renderer is stopped (default 30).", valueName: "seconds"))
    var timeout: Int = 30

    @Flag(name: .long, help: "Render in the viewer's own process instead of a separate renderer process.")
    var noIsolation = false

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file.") }
        if timeout < 1 { throw ValidationError("--timeout must be at least 1 second.") }
    }

    func run() throws {
        guard Terminal.isTerminal(STDIN_FILENO), Terminal.isTerminal(STDOUT_FILENO) else {
            let display = (Terminal.environment("DISPLAY") ?? "").isEmpty == false
                || (Terminal.environment("WAYLAND_DISPLAY") ?? "").isEmpty == false
            if terminal {
                Terminal.error("look --terminal needs a terminal on standard input and output")
            } else if display {
                Terminal.error("look needs a terminal on standard input and output (the window viewer is not available yet)")
            } else {
                Terminal.error("look needs a display or a terminal on standard input and output; there is neither")
            }
            throw ExitStatus.unavailable.exitCode
        }
        if Terminal.environment("TERM") == "dumb" {
            Terminal.error("look needs a terminal that can address the cursor (TERM is dumb)")
            throw ExitStatus.unavailable.exitCode
        }
        let paths = files.map(RawArguments.path)
        // A name that does not exist is a typing mistake: say so before taking the screen.
        for path in paths {
            var info = stat()
            if path.withCString({ stat($0, &info) }) != 0 {
                Terminal.error("\(path): \(Errno.current)")
                throw ExitStatus.noInput.exitCode
            }
        }
        var configuration = ViewerModel.Configuration(
            maximumFileSize: try limits.maximumFileSize(), limits: try limits.renderLimits())
        if noResume { configuration.resume = nil }
        if !noIsolation {
            // Pages are rendered by this same program in a worker process, with the same limits.
            configuration.renderProcess = ["/proc/self/exe", LookRenderWorkerCommand.name]
                + ThumbnailWorkerCommand.limitArguments(try limits.renderLimits())
            configuration.renderTimeout = Double(timeout)
        }
        signal(SIGPIPE, SIG_IGN)
        let styled = (Terminal.environment("NO_COLOR") ?? "").isEmpty
        let password = password
        let settings = configuration
        let environment = ProcessInfo.processInfo.environment

        // The viewer renders synchronously: it gets a thread of its own, not one of Swift's
        // cooperative pool (poppler cannot be cancelled and may block for long).
        let outcome = Mutex<Result<Int32, TerminalSessionError>>(.success(0))
        let thread = JoinableThread(stackSize: 16 << 20) {
            let session = TerminalSession()
            do {
                try session.begin()
            } catch let error as TerminalSessionError {
                session.end()
                outcome.withLock { $0 = .failure(error) }
                return
            } catch {
                session.end()
                outcome.withLock { $0 = .failure(TerminalSessionError("\(error)")) }
                return
            }
            let graphics = TerminalGraphicsProbe.run(session: session, environment: environment)
            session.setUsesKittyImages(graphics.method == .kitty)
            let model = ViewerModel(paths: paths, configuration: settings)
            if let password { model.unlock(password: password) }
            let viewer = TerminalViewer(model: model, session: session, graphics: graphics, styled: styled)
            let status = viewer.run()
            session.end()
            outcome.withLock { $0 = .success(status) }
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
}
