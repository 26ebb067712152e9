import FoundationEssentials
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
        var render = RenderLimits.standard
        var worker = WorkerLimits.standard
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            guard index + 1 < arguments.count, let value = decimal(arguments[index + 1]) else { return nil }
            let option = String(decoding: arguments[index], as: UTF8.self)
            guard seen.insert(option).inserted else { return nil }
            switch option {
            case "--memory-limit": worker.memoryBytes = UInt64(value)
            case "--cpu-limit": worker.cpuSecondsPerRequest = value
            case "--max-pixels" where value > 0: render.maximumImagePixels = value
            case "--max-inflated-size" where value > 0: render.maximumInflatedBytes = value
            case "--max-entries" where value > 0: render.maximumArchiveEntries = value
            default: return nil
            }
            index += 2
        }
        return (render, worker)
    }

    /// A decimal number (at most 18 digits), or nil.
    private static func decimal(_ digits: [UInt8]) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
