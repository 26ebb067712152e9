import ArgumentParser
import Quire

/// `quire print` in its common forms — `-d`/`--destination`, `-n`/`--copies`, `-P`/`--pages`,
/// `--sides`, `-t`/`--title`, each at most once with its value as the next argument, and file
/// names — read straight from `argv` without building the command tree (like
/// ``PlainFormFastPath`` for `can-print` and `info`).
///
/// The argument parser reflects over print's two dozen options several times
/// (completion-script check, parsing, defaults): ~14 M instructions of protocol-conformance and
/// type-metadata lookups, a third of what the rest of a print costs. Anything this does not take
/// exactly — another option, `--`, `-x=v` or `-xv`, a repeated option, a value or file name
/// starting with `-` or empty, "help", a copy count that is not a plain number from 1, a limit
/// or time-limit variable in the environment — goes to the parser, which validates and reports
/// as always. Both paths then run ``PrintCommand/print(_:)`` with the same request.
enum PrintFastPath {
    /// The exit status when `arguments` (the whole `argv`, as bytes) is a common print form and
    /// the command ran; nil to use the full parser.
    static func run(_ arguments: [[UInt8]]) async -> Int32? {
        guard let request = parse(arguments) else { return nil }
        do {
            try await PrintCommand.print(request)
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            return PrintFailure.report(error).rawValue
        }
    }

    /// The option a word names, by index into the values `parse` collects; nil for any other.
    /// (A switch over the words, not a dictionary: a `[[UInt8]: …]` costs half a million
    /// instructions of generic metadata and conformance lookups the first time it is built.)
    private static func field(_ word: [UInt8]) -> Int? {
        switch String(decoding: word, as: UTF8.self) {
        case "-d", "--destination": return 0
        case "-n", "--copies": return 1
        case "-P", "--pages": return 2
        case "--sides": return 3
        case "-t", "--title": return 4
        default: return nil
        }
    }

    /// The request, or nil when `arguments` is not exactly such a form (see the type's comment).
    static func parse(_ arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> PrintRequest? {
        guard arguments.count >= 3, arguments[1] == Array("print".utf8) else { return nil }
        for limit in Limit.allCases {
            if let value = environment(limit.environmentVariable), !value.isEmpty { return nil }
        }
        // destination, copies, pages, sides, title
        var values: [String?] = [nil, nil, nil, nil, nil]
        var files: [DocumentPath] = []
        var index = 2
        while index < arguments.count {
            let word = arguments[index]
            guard !word.isEmpty else { return nil }
            if word.first == UInt8(ascii: "-") {
                // An option we take, once, with a plain value after it (valid UTF-8: the parser
                // would decode it).
                guard let field = field(word), values[field] == nil, index + 1 < arguments.count else { return nil }
                let value = arguments[index + 1]
                guard !value.isEmpty, value.first != UInt8(ascii: "-"),
                      let text = String(validating: value, as: UTF8.self) else { return nil }
                values[field] = text
                index += 2
                continue
            }
            if word == Array("help".utf8) { return nil }
            files.append(DocumentPath(bytes: word))
            index += 1
        }
        guard !files.isEmpty else { return nil }
        var copies: Int?
        if let text = values[1] {
            // The parser reads Int(text) and validate() wants at least 1; anything else it reports.
            guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let value = Int(text), value >= 1 else { return nil }
            copies = value
        }
        return PrintRequest(destination: values[0], copies: copies, pages: values[2],
                            sides: values[3], title: values[4], files: files,
                            maximumFileSize: LimitOptions.defaultMaximumFileSize, renderLimits: .standard,
                            seconds: 60)
    }
}
