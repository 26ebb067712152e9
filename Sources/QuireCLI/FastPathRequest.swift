#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Quire
import QuireRenderService

/// What a line of ``FastPathTable`` asks, as the values its parsed command would hold, and how
/// it runs: through the same function as the parsed command, then the process ends.
enum FastPathRequest: Equatable {
    case version
    /// The thumbnailer contract; INPUT is a path or a `file://` URI.
    case thumbnail(input: [UInt8], output: [UInt8], size: Int)
    case canPrint([DocumentPath])
    case info([DocumentPath])
    /// The viewer's render worker: the whole `argv`, which it reads itself.
    case lookRenderWorker([[UInt8]])
    case look(files: [DocumentPath], resume: Bool)
    case print(PrintRequest)

    /// Runs the request and ends the process: ``QuireMain/end(_:)`` once the output is written,
    /// or `exit` where the exit handlers should run (the window's launch failing, the render
    /// worker). Returns only when the line is the parser's after all: `look` without a display
    /// or the window, a render-worker line its own parser does not take.
    ///
    /// On the main actor, where `main` runs: every short path but `print` is synchronous work on
    /// the main thread, as it always was (the thumbnail's watchdog signals the thread doing the
    /// work; the window inherits this thread's signal mask). A nonisolated `async` function
    /// would hop to Swift's thread pool first, which cost `--version` more than reading the line
    /// (~0.13 M instructions). `print` goes to the pool for its printer lookup beside the page
    /// count, as before. (Ending here rather than returning a status also spares destroying the
    /// request, which went through its type's metadata, instantiated on first use.)
    @MainActor
    func run() async {
        switch self {
        case .version:
            Terminal.out(QuireVersion.string + "\n")
            QuireMain.end(0)
        case .thumbnail(let input, let output, let size):
            QuireMain.end(ThumbnailCommand.writeSingle(
                input: input, output: output, size: size, password: nil,
                maximumFileSize: LimitOptions.defaultMaximumFileSize, limits: .standard,
                timeout: ThumbnailBatchOptions.defaultTimeout).rawValue)
        case .canPrint(let files):
            let system = PrintSystem(timeout: PrintSystem.interactiveTimeout)
            let yes = files.allSatisfy {
                CanPrintCommand.canPrint($0, maximumFileSize: LimitOptions.defaultMaximumFileSize, limits: .standard,
                                         printSystem: system)
            }
            QuireMain.end(yes ? 0 : 1)
        case .info(let files):
            do {
                QuireMain.end(try InfoCommand.describe(
                    files, json: false, password: nil, seconds: InfoCommand.defaultTimeout,
                    maximumFileSize: LimitOptions.defaultMaximumFileSize, renderLimits: .standard)?.rawValue ?? 0)
            } catch {
                return   // not reached: only JSON encoding throws
            }
        case .lookRenderWorker(let arguments):
            // `end`, not `exit`: a worker that ran LibreOffice must not run the office's static
            // destructors (they wait for its threads and can hang the worker's exit).
            if let status = RenderWorkerEntry.run(arguments) { QuireMain.end(status) }
        case .look(let files, let resume):
            guard LookWindowLauncher.hasDisplay, let window = LookWindowLauncher.executable() else { return }
            do {
                try LookCommand.checkExist(files)
            } catch {
                exit(ExitStatus.noInput.rawValue)
            }
            let command = WorkerCommand(executable: ProcessControl.ownExecutable)
            let worker = [command.executable] + command.arguments
            Terminal.error(LookWindowLauncher.exec(window, paths: files, password: nil, resume: resume,
                                                   renderWorker: worker, timeout: LookCommand.defaultTimeout))
            exit(ExitStatus.unavailable.rawValue)
        case .print(let request):
            do {
                try await PrintCommand.print(request)
                QuireMain.end(0)
            } catch let exit as ExitCode {
                QuireMain.end(exit.rawValue)
            } catch {
                QuireMain.end(PrintFailure.report(error).rawValue)
            }
        }
    }
}
