#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file name that starts with `-` is read by the argument parser as options: `quire info
/// -dash.pdf` was `-d -a -s -h` (the help, exit 0). Before the parser runs, an argument that
/// starts with one `-` and names an existing file is refused with the remedy, unless it comes
/// after `--` (where the parser reads it as a file).
enum DashFileNameCheck {
    /// The argument that names a file but would be read as options, or nil.
    static func offending(_ entries: [[UInt8]]) -> [UInt8]? {
        for entry in entries.dropFirst() {
            if entry == Array("--".utf8) { return nil }
            guard entry.count > 1, entry[0] == UInt8(ascii: "-"), entry[1] != UInt8(ascii: "-") else { continue }
            var info = stat()
            let exists = (entry + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 }
            }
            if exists { return entry }
        }
        return nil
    }

    /// Refuses such a command line: one line naming the file and the remedy; whether it did
    /// (the caller exits 64).
    static func refused(_ entries: [[UInt8]]) -> Bool {
        guard let name = offending(entries) else { return false }
        let text = String(decoding: name, as: UTF8.self)
        let command = entries.count > 1 ? String(decoding: entries[1], as: UTF8.self) : "COMMAND"
        Terminal.error("\(text): a file name that starts with '-' is read as options; "
                       + "put -- before it (quire \(command) -- \(text)) or write it as ./\(text)")
        return true
    }
}
