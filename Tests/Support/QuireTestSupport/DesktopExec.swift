import Foundation

/// An installed action's command line, split the way file managers split it: desktop-entry
/// quoting (`"…"` with `\` escapes inside), field codes replaced by the selected files — each
/// file its own argument, never through a shell.
public enum DesktopExec {
    /// The value of `key=` in the group `[group]` of a desktop-entry style file (a Nemo action,
    /// a KDE service menu); nil when absent.
    public static func value(_ key: String, in text: String, group: String) -> String? {
        var inGroup = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("[") {
                inGroup = line == "[\(group)]"
            } else if inGroup, line.hasPrefix(key + "=") {
                return String(line.dropFirst(key.count + 1))
            }
        }
        return nil
    }

    /// `exec` split into arguments with `%F`/`%U` replaced by all `files` (paths, or file URIs
    /// for `%U`), `%f`/`%u` by the first.
    public static func arguments(_ exec: String, files: [String]) -> [String] {
        let uris = files.map { "file://" + ($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0) }
        return split(exec).flatMap { word -> [String] in
            switch word {
            case "%F": return files
            case "%U": return uris
            case "%f": return Array(files.prefix(1))
            case "%u": return Array(uris.prefix(1))
            default: return [word]
            }
        }
    }

    /// `exec` split into words (field codes left as they are).
    public static func split(_ exec: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false, escaped = false, started = false
        for character in exec {
            if escaped { current.append(character); escaped = false; continue }
            switch character {
            case "\\" where quoted: escaped = true
            case "\"": quoted.toggle(); started = true
            case " " where !quoted:
                if started || !current.isEmpty { words.append(current); current = ""; started = false }
            default: current.append(character)
            }
        }
        if started || !current.isEmpty { words.append(current) }
        return words
    }
}
