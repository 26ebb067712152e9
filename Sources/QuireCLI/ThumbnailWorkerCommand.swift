import ArgumentParser
import Quire
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

    @Option(name: .long, help: "Image pixel limit.")
    var maxPixels: Int = RenderLimits.standard.maximumImagePixels

    @Option(name: .long, help: "Bytes inflated per container.")
    var maxInflatedSize: Int = RenderLimits.standard.maximumInflatedBytes

    @Option(name: .long, help: "Entries per container.")
    var maxEntries: Int = RenderLimits.standard.maximumArchiveEntries

    /// The worker arguments that carry `limits` (the parent's --max-* options).
    static func limitArguments(_ limits: RenderLimits) -> [String] {
        ["--max-pixels", String(limits.maximumImagePixels), "--max-inflated-size", String(limits.maximumInflatedBytes),
         "--max-entries", String(limits.maximumArchiveEntries)]
    }

    func run() throws {
        var limits = RenderLimits.standard
        limits.maximumImagePixels = maxPixels
        limits.maximumInflatedBytes = maxInflatedSize
        limits.maximumArchiveEntries = maxEntries
        let worker = ThumbnailWorker(renderer: RendererThumbnailSource(limits: limits),
                                     limits: .init(memoryBytes: memoryLimit, cpuSecondsPerFile: cpuLimit))
        let status = worker.run()
        if status != 0 { throw ExitCode(status) }
    }
}
