import Quire

/// `quire can-print FILE` and `quire info FILE...` in their plain forms, read straight from
/// `argv` without building the command tree (like ``ThumbnailFastPath`` for the thumbnailer
/// contract).
///
/// File managers run `quire can-print FILE` each time a context menu opens (Nemo's
/// `Conditions=exec`), and scripts run `quire info` per file: the argument parser's reflection over
/// the commands and their options (~15 M instructions of type-metadata and protocol-conformance
/// lookups) cost more than the rest of `can-print`. Only the exact plain form is taken — no option,
/// no argument starting with `-`, no limit or time-limit variable in the environment; anything
/// else goes to the parser, which validates and reports as before. Both paths run the same code
/// (``CanPrintCommand/canPrint(_:maximumFileSize:limits:)``,
/// ``InfoCommand/describe(_:json:password:seconds:maximumFileSize:renderLimits:)``).
enum PlainFormFastPath {
    enum Request: Equatable {
        case canPrint([UInt8])
        case info([[UInt8]])
    }

    /// The exit status when `arguments` (the whole `argv`, as bytes) is a plain form and the
    /// command ran; nil to use the full parser.
    static func run(_ arguments: [[UInt8]]) -> Int32? {
        switch parse(arguments) {
        case nil:
            return nil
        case .canPrint(let file):
            let yes = CanPrintCommand.canPrint(DocumentPath(bytes: file), maximumFileSize: LimitOptions.defaultMaximumFileSize,
                                               limits: .standard)
            return yes ? 0 : 1
        case .info(let files):
            do {
                return try InfoCommand.describe(files.map { DocumentPath(bytes: $0) }, json: false, password: nil,
                                                seconds: InfoCommand.defaultTimeout,
                                                maximumFileSize: LimitOptions.defaultMaximumFileSize,
                                                renderLimits: .standard)?.rawValue ?? 0
            } catch {
                return nil   // not reached: only JSON encoding throws
            }
        }
    }

    /// The request, or nil when `arguments` is not exactly `quire can-print FILE` or
    /// `quire info FILE...` with plain file names and no limit variables in the environment.
    static func parse(_ arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> Request? {
        guard arguments.count >= 3 else { return nil }
        for limit in Limit.allCases {
            if let value = environment(limit.environmentVariable), !value.isEmpty { return nil }
        }
        let files = Array(arguments[2...])
        // "-x" and "--" are options to the parser; "help" is one of its words; "" is left to it.
        guard files.allSatisfy({ !$0.isEmpty && $0.first != UInt8(ascii: "-") && $0 != Array("help".utf8) }) else {
            return nil
        }
        switch arguments[1] {
        case Array("can-print".utf8) where files.count == 1: return .canPrint(files[0])
        case Array("info".utf8): return .info(files)
        default: return nil
        }
    }
}
