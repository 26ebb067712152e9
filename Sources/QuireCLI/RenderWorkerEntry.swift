#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire
import QuireRenderService
import QuireThumbnails

/// `quire __render-worker OPTIONS`: the render service's worker process (batch thumbnails, the
/// viewers' documents and pages), started only by Quire itself through ``WorkerCommand``,
/// whose words it reads back (``WorkerCommand/parse(_:)``) without the argument parser: a
/// worker lives as long as its viewer and is counted in its memory, and the parser's
/// reflection over every command touches code and metadata all over the binary.
enum RenderWorkerEntry {
    /// The worker's exit status when `arguments` (the whole `argv`, as bytes) starts with the
    /// worker's word; nil for any other command.
    static func run(_ arguments: [[UInt8]]) -> Int32? {
        guard arguments.count >= 2, arguments[1] == Array(WorkerCommand.subcommand.utf8) else { return nil }
        guard let (render, limits) = WorkerCommand.parse(Array(arguments.dropFirst(2))) else {
            Terminal.error("\(WorkerCommand.subcommand) is Quire's own worker: it takes only the options Quire starts it with")
            return ExitStatus.usage.rawValue
        }
        let worker = RenderWorker(renderLimits: render, limits: limits,
                                  software: QuireThumbnailsInfo.software,
                                  environment: ProcessInfo.processInfo.environment)
        return worker.run()
    }
}
