/// Quoting for the `Exec` key of desktop entries (Desktop Entry Specification, "The Exec
/// key"): arguments with reserved characters are double-quoted, with `"`, `` ` ``, `$` and `\`
/// escaped; a literal `%` is written `%%`. File names are never written into Exec lines —
/// only the program path and field codes such as `%F`, which the file manager expands into
/// separate arguments.
package enum DesktopEntry {
    package static func quote(_ argument: String) -> String {
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

    /// A value of type string as key-file readers (GKeyFile, KConfig) unescape it: `\\`, `\n`,
    /// `\t`, `\r`, and `\s` for a leading space (which readers would otherwise drop). Applied
    /// after ``quote(_:)`` for `Exec` keys ("to unambiguously represent a literal backslash
    /// character in a quoted argument in a desktop entry requires the use of four successive
    /// backslash characters"), and alone for plain paths such as `TryExec`, which are not quoted.
    /// Without it a path with a space, `"`, `$`, `` ` `` or `\` gave a `.thumbnailer` file that
    /// GNOME's thumbnail factory rejects or misreads (found by Fuzz/DesktopEntryFuzzer).
    package static func string(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case " " where out.isEmpty: out += "\\s"
            default: out.append(character)
            }
        }
        return out
    }

    /// A `Key=a;b;c;` list value.
    package static func list(_ values: [String]) -> String {
        values.map { $0.replacing(";", with: "\\;") }.joined(separator: ";") + ";"
    }
}

import FoundationEssentials
