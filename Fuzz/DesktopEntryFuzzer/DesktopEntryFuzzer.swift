// libFuzzer target: the executable path as Quire writes it into the freedesktop `.thumbnailer`
// file (IntegrationFiles.thumbnailer, DesktopEntry quoting), read back the way file managers
// read it: GKeyFile's string unescaping (\s \n \t \r \\; any other escape makes the value
// invalid), then the Exec line split as g_shell_parse_argv does (GNOME's thumbnail factory),
// then "%%" → "%".
// Properties: the group has exactly one TryExec and one Exec key (a path cannot inject keys or
// groups); TryExec reads back as the path; Exec's first argument is the path and the rest is
// `thumbnail -s %s %u %o`; MimeType is a list of MIME types.
// Everything works on Unicode scalars, as GLib works on bytes: with Characters, a `"` or `=`
// followed by a combining mark is one grapheme and matches neither.
// Built with -sanitize=fuzzer (make fuzz); without it, a replay driver runs saved inputs.
import FuzzDriver
import Quire
import QuireIntegration

typealias Scalars = ArraySlice<Unicode.Scalar>

func text(_ scalars: Scalars) -> String { String(String.UnicodeScalarView(scalars)) }

/// GKeyFile's value unescaping; nil for an escape it rejects.
func keyFileString(_ raw: Scalars) -> String? {
    var out = String.UnicodeScalarView()
    var iterator = raw.makeIterator()
    while let scalar = iterator.next() {
        guard scalar == "\\" else { out.append(scalar); continue }
        switch iterator.next() {
        case "s": out.append(" ")
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "r": out.append("\r")
        case "\\": out.append("\\")
        default: return nil
        }
    }
    return String(out)
}

/// g_shell_parse_argv's splitting: blanks separate words outside quotes; '…' is literal;
/// in "…" a backslash escapes only $ ` " \ and newline; outside quotes it escapes any character;
/// # at the start of a word starts a comment. nil for unterminated quotes.
func shellWords(_ line: String) -> [String]? {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var inWord = false
    var scalars = Array(line.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
        switch scalar {
        case " ", "\t", "\n":
            if inWord { words.append(String(current)); current = String.UnicodeScalarView(); inWord = false }
        case "#" where !inWord:
            while let next = scalars.first, next != "\n" { scalars.removeFirst() }
        case "'":
            inWord = true
            guard let end = scalars.firstIndex(of: "'") else { return nil }
            current.append(contentsOf: scalars[..<end]); scalars = scalars[(end + 1)...]
        case "\"":
            inWord = true
            var closed = false
            while let next = scalars.popFirst() {
                if next == "\"" { closed = true; break }
                if next == "\\", let escaped = scalars.first, "$`\"\\\n".unicodeScalars.contains(escaped) {
                    scalars.removeFirst()
                    if escaped != "\n" { current.append(escaped) }
                } else {
                    current.append(next)
                }
            }
            if !closed { return nil }
        case "\\":
            inWord = true
            if let next = scalars.popFirst(), next != "\n" { current.append(next) }
        default:
            inWord = true; current.append(scalar)
        }
    }
    if inWord { words.append(String(current)) }
    return words
}

/// `%%` → `%`, on Unicode scalars.
func unescapePercent(_ word: String) -> String {
    var out = String.UnicodeScalarView(), scalars = word.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
        out.append(scalar)
        if scalar == "%", scalars.first == "%" { scalars.removeFirst() }
    }
    return String(out)
}

/// IntegrationFiles.all(…) writes exactly IntegrationFiles.thumbnailer(…); the MIME list is
/// derived once (it walks the whole shared-mime-info database: ~1 s per call under ASan).
let thumbnailerTypes = SupportedTypes.thumbnailerTypes

func fuzzOne(_ bytes: [UInt8]) {
    let executable = String(decoding: bytes, as: UTF8.self)
    guard !executable.isEmpty, !executable.unicodeScalars.contains("\0") else { return }
    let thumbnailer = IntegrationFiles.thumbnailer(executable: executable, types: thumbnailerTypes)
    var group = ""
    var keys: [String: [Scalars]] = [:]
    for line in Array(thumbnailer.contents.unicodeScalars).split(separator: "\n") {
        if line.first == "[" { group = text(line); continue }
        guard let equals = line.firstIndex(of: "=") else { preconditionFailure("line without '=': \(text(line))") }
        precondition(group == "[Thumbnailer Entry]", "a key outside the group: \(text(line))")
        // GKeyFile drops blanks after the key and before the value.
        var key = line[..<equals]
        while let last = key.last, last == " " || last == "\t" { key.removeLast() }
        keys[text(key), default: []].append(line[(equals + 1)...].drop { $0 == " " || $0 == "\t" })
    }
    precondition(keys.keys.sorted() == ["Exec", "MimeType", "TryExec"], "keys: \(keys.keys.sorted())")
    precondition(keys.values.allSatisfy { $0.count == 1 })
    let tryExec = keyFileString(keys["TryExec"]![0])
    precondition(tryExec == executable, "TryExec reads back as \(String(describing: tryExec))")
    guard let exec = keyFileString(keys["Exec"]![0]) else { preconditionFailure("Exec has an invalid escape") }
    guard let words = shellWords(exec) else { preconditionFailure("Exec does not split: \(exec)") }
    // Field codes are read per byte (GLib's expansion): on Characters, a "%%" whose second
    // "%" carries a combining mark would not match (found by this target in CI's smoke run).
    let arguments = words.map(unescapePercent)
    precondition(arguments.count == 6 && arguments[1...] == ["thumbnail", "-s", "%s", "%u", "%o"],
                 "Exec splits into \(arguments)")
    precondition(arguments[0].unicodeScalars.elementsEqual(executable.unicodeScalars), "Exec's program is \(arguments[0])")
    precondition(text(keys["MimeType"]![0]).split(separator: ";").allSatisfy { $0.contains("/") })
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
