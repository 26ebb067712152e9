#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Quire

/// What a line of ``FastPathTable`` asks, as the values its parsed command would hold, and how
/// it runs: through the same function as the parsed command.
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

    /// How the process ends after a short path.
    enum Ending: Equatable {
        /// `_exit` once the output is written (``QuireMain/end(_:)``).
        case immediately(Int32)
        /// `exit`, through the exit handlers.
        case throughExitHandlers(Int32)
    }

    /// Runs the request; nil when it is the parser's after all (`look` without a display or
    /// the window, a render-worker line its own parser does not take).
    func run() async -> Ending? {
        switch self {
        case .version:
            Terminal.out(QuireVersion.string + "\n")
            return .immediately(0)
        case .thumbnail(let input, let output, let size):
            return .immediately(ThumbnailCommand.writeSingle(
                input: input, output: output, size: size, password: nil,
                maximumFileSize: LimitOptions.defaultMaximumFileSize, limits: .standard,
                timeout: ThumbnailBatchOptions.defaultTimeout).rawValue)
        case .canPrint(let files):
            let yes = files.allSatisfy {
                CanPrintCommand.canPrint($0, maximumFileSize: LimitOptions.defaultMaximumFileSize, limits: .standard)
            }
            return .immediately(yes ? 0 : 1)
        case .info(let files):
            do {
                return .immediately(try InfoCommand.describe(
                    files, json: false, password: nil, seconds: InfoCommand.defaultTimeout,
                    maximumFileSize: LimitOptions.defaultMaximumFileSize, renderLimits: .standard)?.rawValue ?? 0)
            } catch {
                return nil   // not reached: only JSON encoding throws
            }
        case .lookRenderWorker(let arguments):
            return LookRenderWorkerFastPath.run(arguments).map(Ending.throughExitHandlers)
        case .look(let files, let resume):
            guard LookWindowLauncher.hasDisplay, let window = LookWindowLauncher.executable() else { return nil }
            do {
                try LookCommand.checkExist(files)
            } catch {
                return .throughExitHandlers(ExitStatus.noInput.rawValue)
            }
            let worker = [ThumbnailBatchRun.ownExecutable(), LookRenderWorkerCommand.name]
                + ThumbnailWorkerCommand.limitArguments(.standard)
            Terminal.error(LookWindowLauncher.exec(window, paths: files, password: nil, resume: resume,
                                                   renderWorker: worker, timeout: LookCommand.defaultTimeout))
            return .throughExitHandlers(ExitStatus.unavailable.rawValue)
        case .print(let request):
            do {
                try await PrintCommand.print(request)
                return .immediately(0)
            } catch let exit as ExitCode {
                return .immediately(exit.rawValue)
            } catch {
                return .immediately(PrintFailure.report(error).rawValue)
            }
        }
    }
}
