// libFuzzer target: the executable path as Quire writes it into the freedesktop `.thumbnailer`
// file (IntegrationFiles.thumbnailer, DesktopEntry quoting), read back the way file managers read it:
// GKeyFile's string unescaping (\s \n \t \r \\; any other escape makes the value invalid), then
// the Exec line split as g_shell_parse_argv does (GNOME's thumbnail factory), then "%%" → "%".
// Properties: the group has exactly one TryExec and one Exec key (a path cannot inject keys or
// groups); TryExec reads back as the path; Exec's first argument is the path and the rest is
// `thumbnail -s %s %u %o`; MimeType is a list of MIME types.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import Quire
import QuireIntegration

/// GKeyFile's value unescaping; nil for an escape it rejects.
func keyFileString(_ raw: Substring) -> String? {
    var out = ""
    var iterator = raw.makeIterator()
    while let character = iterator.next() {
        guard character == "\\" else { out.append(character); continue }
        switch iterator.next() {
        case "s": out.append(" ")
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "r": out.append("\r")
        case "\\": out.append("\\")
        default: return nil
        }
    }
    return out
}

/// g_shell_parse_argv's splitting: blanks separate words outside quotes; '…' is literal;
/// in "…" a backslash escapes only $ ` " \ and newline; outside quotes it escapes any character;
/// # at the start of a word starts a comment. nil for unterminated quotes.
func shellWords(_ line: String) -> [String]? {
    var words: [String] = []
    var current = ""
    var inWord = false
    var characters = Array(line)[...]
    while let character = characters.popFirst() {
        switch character {
        case " ", "\t", "\n":
            if inWord { words.append(current); current = ""; inWord = false }
        case "#" where !inWord:
            while let next = characters.first, next != "\n" { characters.removeFirst() }
        case "'":
            inWord = true
            guard let end = characters.firstIndex(of: "'") else { return nil }
            current += String(characters[..<end]); characters = characters[(end + 1)...]
        case "\"":
            inWord = true
            var closed = false
            while let next = characters.popFirst() {
                if next == "\"" { closed = true; break }
                if next == "\\", let escaped = characters.first, "$`\"\\\n".contains(escaped) {
                    characters.removeFirst()
                    if escaped != "\n" { current.append(escaped) }
                } else {
                    current.append(next)
                }
            }
            if !closed { return nil }
        case "\\":
            inWord = true
            if let next = characters.popFirst(), next != "\n" { current.append(next) }
        default:
            inWord = true; current.append(character)
        }
    }
    if inWord { words.append(current) }
    return words
}

extension String {
    func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var copy = self
        while let last = copy.last, predicate(last) { copy.removeLast() }
        return copy
    }
}

let thumbnailerTypes = SupportedTypes.thumbnailerTypes

func fuzzOne(_ bytes: [UInt8]) {
    let executable = String(decoding: bytes, as: UTF8.self)
    guard !executable.isEmpty, !executable.unicodeScalars.contains("\0") else { return }
    // IntegrationFiles.all(…) writes exactly this file; the MIME list is derived once (it walks
    // the whole shared-mime-info database: ~1 s per call under ASan).
    let thumbnailer = IntegrationFiles.thumbnailer(executable: executable, types: thumbnailerTypes)
    var group = ""
    var keys: [String: [Substring]] = [:]
    for line in thumbnailer.contents.split(separator: "\n", omittingEmptySubsequences: true) {
        if line.hasPrefix("[") { group = String(line); continue }
        guard let equals = line.firstIndex(of: "=") else { preconditionFailure("line without '=': \(line)") }
        precondition(group == "[Thumbnailer Entry]", "a key outside the group: \(line)")
        // GKeyFile drops blanks after the key and before the value.
        let key = String(line[..<equals]).trimmingSuffix(while: { $0 == " " || $0 == "\t" })
        keys[key, default: []].append(line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" })
    }
    precondition(keys.keys.sorted() == ["Exec", "MimeType", "TryExec"], "keys: \(keys.keys.sorted())")
    precondition(keys.values.allSatisfy { $0.count == 1 })
    let tryExec = keyFileString(keys["TryExec"]![0])
    precondition(tryExec == executable, "TryExec reads back as \(String(describing: tryExec))")
    guard let exec = keyFileString(keys["Exec"]![0]) else { preconditionFailure("Exec has an invalid escape") }
    guard let words = shellWords(exec) else { preconditionFailure("Exec does not split: \(exec)") }
    let arguments = words.map { $0.replacing("%%", with: "%") }
    precondition(arguments == [executable, "thumbnail", "-s", "%s", "%u", "%o"],
                 "Exec splits into \(arguments)")
    precondition(keys["MimeType"]![0].split(separator: ";").allSatisfy { $0.contains("/") })
}

#if FUZZING
@_cdecl("fuzz_desktop_entry_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, fuzzOne)
}
#else
@main
struct DesktopEntryReplay {
    static func main() throws {
        try FuzzDriver.replay(fuzzOne)
    }
}
#endif
