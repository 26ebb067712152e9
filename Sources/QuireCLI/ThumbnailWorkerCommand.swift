import ArgumentParser
import QuireThumbnails

/// The hidden worker subcommand: `quire __thumbnail-worker`, started by `thumbnail --batch`,
/// reads file requests on standard input and answers with thumbnails on standard output.
struct ThumbnailWorkerCommand: ParsableCommand {
    static let name = "__thumbnail-worker"
    static let configuration = CommandConfiguration(
        commandName: name, abstract: "Internal: a thumbnail worker process.", shouldDisplay: false)

    @Option(name: .long, help: "Address-space limit in bytes (0: none).")
    var memoryLimit: UInt64 = 2 << 30

    @Option(name: .long, help: "CPU seconds per file (0: none).")
    var cpuLimit: Int = 30

    func run() throws {
        let worker = ThumbnailWorker(renderer: RendererThumbnailSource(),
                                     limits: .init(memoryBytes: memoryLimit, cpuSecondsPerFile: cpuLimit))
        let status = worker.run()
        if status != 0 { throw ExitCode(status) }
    }
}
