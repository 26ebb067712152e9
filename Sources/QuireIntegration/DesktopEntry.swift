/// Quoting for the `Exec` key of desktop entries (Desktop Entry Specification, "The Exec
/// key"): arguments with reserved characters are double-quoted, with `"`, `` ` ``, `$` and `\`
/// escaped; a literal `%` is written `%%`. File names are never written into Exec lines —
/// only the program path and field codes such as `%F`, which the file manager expands into
/// separate arguments.
enum DesktopEntry {
    static func quote(_ argument: String) -> String {
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`")
        var escaped = argument.replacing("%", with: "%%")
        guard escaped.contains(where: reserved.contains) else { return escaped }
        var out = "\""
        for character in escaped {
            if "\"`$\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        escaped = out + "\""
        return escaped
    }

    /// A `Key=a;b;c;` list value.
    static func list(_ values: [String]) -> String {
        values.map { $0.replacing(";", with: "\\;") }.joined(separator: ";") + ";"
    }
}

import FoundationEssentials
