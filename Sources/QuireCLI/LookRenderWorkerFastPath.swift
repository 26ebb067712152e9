#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireViewer

/// `quire __look-render-worker --max-pixels N --max-inflated-size N --max-entries N`, the exact
/// form the viewer starts its render worker with, read straight from `argv`.
///
/// The worker lives as long as the window and is counted in its memory: the argument parser's
/// reflection over every command touches code and metadata all over the binary (resident for
/// the worker's life), which a page renderer has no use for. Anything else (another option, a
/// limit set in the environment) returns nil and goes through the parser, with its checks.
enum LookRenderWorkerFastPath {
    /// The worker's exit status when `arguments` (the whole `argv`, as bytes) is the exact
    /// form; nil to use the full parser.
    static func run(_ arguments: [[UInt8]]) -> Int32? {
        guard let limits = parse(arguments) else { return nil }
        return PageRenderServer.serve(limits: limits)
    }

    /// The limits, or nil when `arguments` is not exactly the worker's form.
    static func parse(_ arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> RenderLimits? {
        guard arguments.count >= 2, arguments[1] == Array(LookRenderWorkerCommand.name.utf8) else { return nil }
        for limit in Limit.allCases {
            if let value = environment(limit.environmentVariable), !value.isEmpty { return nil }
        }
        var limits = RenderLimits.standard
        var seen: Set<String> = []
        var index = 2
        while index < arguments.count {
            guard index + 1 < arguments.count, let value = decimal(arguments[index + 1]) else { return nil }
            let option = String(decoding: arguments[index], as: UTF8.self)
            guard seen.insert(option).inserted else { return nil }
            switch option {
            case "--max-pixels": limits.maximumImagePixels = value
            case "--max-inflated-size": limits.maximumInflatedBytes = value
            case "--max-entries": limits.maximumArchiveEntries = value
            default: return nil
            }
            index += 2
        }
        return limits
    }

    /// A positive decimal number (at most 18 digits), or nil.
    private static func decimal(_ digits: [UInt8]) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value > 0 ? value : nil
    }
}
