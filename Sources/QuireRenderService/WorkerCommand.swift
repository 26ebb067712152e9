import FoundationEssentials
import QuireArguments
import QuireRender

/// How a render worker is started — the one place its command line is built: the program (this
/// very `quire`, started with its hidden `__render-worker` word), the limits it applies to
/// itself (memory, CPU per request, and the renderers' limits), and the sandbox around it
/// (bubblewrap with the inputs read-only, when available). The batch's workers, the viewers'
/// page worker and the previewer's all start from here; ``parse(_:)`` reads the same words
/// back inside the worker.
public struct WorkerCommand: Sendable, Hashable {
    /// The hidden word that makes `quire` a render worker.
    public static let subcommand = "__render-worker"

    /// The `quire` executable.
    public var executable: String
    public var renderLimits: RenderLimits
    public var limits: WorkerLimits
    public var environment: [String: String]
    /// Send the worker's standard error to /dev/null (C libraries can be chatty; a viewer's
    /// terminal must not be drawn over).
    public var quietStandardError: Bool

    public init(executable: String, renderLimits: RenderLimits = .standard, limits: WorkerLimits = .standard,
                environment: [String: String] = ProcessInfo.processInfo.environment, quietStandardError: Bool = true) {
        self.executable = executable
        self.renderLimits = renderLimits
        self.limits = limits
        self.environment = environment
        self.quietStandardError = quietStandardError
    }

    /// The arguments after the executable.
    public var arguments: [String] {
        [Self.subcommand,
         "--memory-limit", String(limits.memoryBytes), "--cpu-limit", String(limits.cpuSecondsPerRequest),
         "--max-pixels", String(renderLimits.maximumImagePixels),
         "--max-inflated-size", String(renderLimits.maximumInflatedBytes),
         "--max-entries", String(renderLimits.maximumArchiveEntries)]
    }

    /// The whole argv (program first) under `sandbox`, with read access to `readable` (the
    /// inputs) besides the system.
    public func argv(sandbox: WorkerSandbox, readable: [String] = []) -> [String] {
        sandbox.command(executable: executable, arguments: arguments, readable: readable)
    }

    /// The limits in a worker's arguments (what follows ``subcommand``), exactly as
    /// ``arguments`` writes them, each at most once, in any order; nil for anything else.
    public static func parse(_ arguments: [[UInt8]]) -> (render: RenderLimits, worker: WorkerLimits)? {
        guard let parsed = try? form.parse([[], Array(subcommand.utf8)] + arguments) else { return nil }
        var render = RenderLimits.standard
        var worker = WorkerLimits.standard
        if let value = parsed.integer("--memory-limit") { worker.memoryBytes = UInt64(value) }
        if let value = parsed.integer("--cpu-limit") { worker.cpuSecondsPerRequest = value }
        if let value = parsed.integer("--max-pixels") { render.maximumImagePixels = value }
        if let value = parsed.integer("--max-inflated-size") { render.maximumInflatedBytes = value }
        if let value = parsed.integer("--max-entries") { render.maximumArchiveEntries = value }
        return (render, worker)
    }

    /// The worker's words as ``arguments`` writes them: each limit a decimal number (the
    /// renderers' at least 1), at most once, in any order, and nothing else.
    static let form = ArgumentForm(
        command: subcommand,
        options: [
            .option("--memory-limit", value: .integer(0...Int.max)),
            .option("--cpu-limit", value: .integer(0...Int.max)),
            .option("--max-pixels", value: .integer(1...Int.max)),
            .option("--max-inflated-size", value: .integer(1...Int.max)),
            .option("--max-entries", value: .integer(1...Int.max)),
        ],
        operands: .none)
}
