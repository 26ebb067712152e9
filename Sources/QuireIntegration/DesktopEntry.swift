/// Quoting for the `Exec` key of desktop entries (Desktop Entry Specification, "The Exec
/// key"): arguments with reserved characters are double-quoted, with `"`, `` ` ``, `$` and `\`
/// escaped; a literal `%` is written `%%`. File names are never written into Exec lines —
/// only the program path and field codes such as `%F`, which the file manager expands into
/// separate arguments.
package enum DesktopEntry {
    package static func quote(_ argument: String) -> String {
        // Unicode scalars, not Characters: a `"` followed by a combining mark is one Character
        // that equals no reserved one, and went out unescaped (found by Fuzz/DesktopEntryFuzzer).
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`".unicodeScalars)
        var escaped = String.UnicodeScalarView()
        for scalar in argument.unicodeScalars {
            escaped.append(scalar)
            if scalar == "%" { escaped.append("%") }
        }
        guard escaped.contains(where: reserved.contains) else { return String(escaped) }
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in escaped {
            if "\"`$\\".unicodeScalars.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        out.append("\"")
        return String(out)
    }

    /// A value of type string as key-file readers (GKeyFile, KConfig) unescape it: `\\`, `\n`,
    /// `\t`, `\r`, and `\s` for a leading space (which readers would otherwise drop). Applied
    /// after ``quote(_:)`` for `Exec` keys ("to unambiguously represent a literal backslash
    /// character in a quoted argument in a desktop entry requires the use of four successive
    /// backslash characters"), and alone for plain paths such as `TryExec`, which are not quoted.
    /// Without it a path with a space, `"`, `$`, `` ` `` or `\` gave a `.thumbnailer` file that
    /// GNOME's thumbnail factory rejects or misreads (found by Fuzz/DesktopEntryFuzzer).
    package static func string(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case " " where out.isEmpty: out.append(contentsOf: "\\s".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A `Key=a;b;c;` list value.
    package static func list(_ values: [String]) -> String {
        values.map { value in
            var out = String.UnicodeScalarView()
            for scalar in value.unicodeScalars {
                if scalar == ";" { out.append("\\") }
                out.append(scalar)
            }
            return String(out)
        }.joined(separator: ";") + ";"
    }
}

import FoundationEssentials
