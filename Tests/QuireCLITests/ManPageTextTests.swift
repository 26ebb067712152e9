import Foundation
import QuireTestSupport
import Testing

/// The man pages in man/ keep every character of the help (issue 42): swift-argument-parser's
/// generate-manual drops what is not ASCII, so "Print with Quire…" and "1024…" lost their "…"
/// and "W×H" became "WH". scripts/generate-man.sh writes them as "...", groff's \[mu] and
/// \[uXXXX]; here each non-ASCII character of the help is looked for, with the words around
/// it, in the committed pages.
@Suite struct ManPageTextTests {
    /// How scripts/generate-man.sh writes a character outside ASCII.
    static func manSpelling(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\u{2026}": return "..."
        case "\u{00D7}": return "\\[mu]"
        default: return "\\[u" + String(format: "%04X", scalar.value) + "]"
        }
    }

    /// Every string of the help JSON that holds a character outside ASCII.
    static func nonASCIIStrings(_ value: Any) -> [String] {
        switch value {
        case let string as String: return string.unicodeScalars.contains { !$0.isASCII } ? [string] : []
        case let array as [Any]: return array.flatMap(nonASCIIStrings)
        case let object as [String: Any]: return object.values.flatMap(nonASCIIStrings)
        default: return []
        }
    }

    @Test func everyNonASCIICharacterOfTheHelpReachesTheManPages() throws {
        let dump = QuireBinary.run(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let help = try JSONSerialization.jsonObject(with: Data(dump.standardOutput))
        let strings = Self.nonASCIIStrings(help)
        #expect(!strings.isEmpty, "the help has an ellipsis and a multiplication sign today")
        let directory = Samples.repositoryRoot.appendingPathComponent("man")
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".1") }
        let manText = try pages.map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
        #expect(!manText.unicodeScalars.contains { !$0.isASCII })
        for string in strings {
            let scalars = Array(string.unicodeScalars)
            for (index, scalar) in scalars.enumerated() where !scalar.isASCII {
                // Up to 12 characters either side, within the line, as the page spells them.
                let before = scalars[max(0, index - 12)..<index].split(separator: "\n").last.map(Array.init) ?? []
                let after = scalars[(index + 1)..<min(scalars.count, index + 13)].split(separator: "\n", omittingEmptySubsequences: false).first.map(Array.init) ?? []
                var fragment = ""
                for part in before + [scalar] + after {
                    fragment += part.isASCII ? String(part) : Self.manSpelling(part)
                }
                #expect(manText.contains(fragment), "man/ lacks \(fragment)")
            }
        }
    }
}

extension ManPageTextTests {
    /// Every page a man page names (`.Xr quire.print 1`, "quire-print(1)") is in man/: quire.1
    /// named a quire.help(1) that did not exist.
    @Test func everyPageTheManPagesNameExists() throws {
        let folder = Samples.repositoryRoot.appendingPathComponent("man").path
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".1") }
        #expect(pages.count > 10)
        let available = Set(pages.map { String($0.dropLast(2)) })
        for page in pages {
            let text = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix(".Xr quire") {
                let name = String(line.split(separator: " ")[1])
                // A subcommand's page is quire.NAME, also named quire-NAME (as git names its pages).
                #expect(available.contains(name) || available.contains(name.replacingOccurrences(of: ".", with: "-")),
                        "\(page) names \(name)(1), which is not in man/")
            }
        }
    }
}
