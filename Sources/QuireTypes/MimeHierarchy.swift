#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import Synchronization

/// The is-a relations of shared-mime-info: the `subclasses` and `aliases` files that
/// `update-mime-database` writes under each `$XDG_DATA_DIRS/mime/`, plus the rules the
/// specification states (every `text/*` is a `text/plain`; every stream is an
/// `application/octet-stream`).
///
/// The files are read once per process, on first use, and kept as bytes: a question looks up
/// only the lines of the types it names (a scan of ~30 kB), and each type's answer is kept.
/// Building dictionaries of all ~1,000 relations cost 3 M instructions of every `quire info`,
/// which asks about one type.
final class MimeHierarchy: Sendable {
    /// Per directory, in precedence order (earlier first).
    private let subclasses: [[UInt8]]
    private let aliases: [[UInt8]]
    /// Answers already given. A few types per process: a list, not a dictionary, whose first
    /// use looks up `String: Hashable` at run time (a scan of every conformance record, ~0.4 M
    /// instructions of each `quire info`).
    private let memo = Mutex<[(type: String, ancestors: [String])]>([])

    static let shared = MimeHierarchy(directories: MimeHierarchy.mimeDirectories())

    init(directories: [String]) {
        subclasses = directories.compactMap { Self.contents(of: $0 + "/subclasses") }
        aliases = directories.compactMap { Self.contents(of: $0 + "/aliases") }
    }

    /// The canonical name of an alias (the first directory that lists it wins), else `type`.
    func canonical(_ type: String) -> String {
        for file in aliases {
            if let target = Self.values(of: type, in: file, first: true).first { return target }
        }
        return type
    }

    /// All ancestors of `type`, nearest first, without duplicates.
    func ancestors(of type: String) -> [String] {
        if let known = memo.withLock({ $0.first { $0.type == type }?.ancestors }) { return known }
        var result: [String] = []
        var queue = directParents(of: canonical(type))
        while !queue.isEmpty {
            let next = queue.removeFirst()
            if next == type || result.contains(next) { continue }
            result.append(next)
            queue.append(contentsOf: directParents(of: next))
        }
        if let octet = result.firstIndex(of: "application/octet-stream") {
            result.remove(at: octet)
            result.append("application/octet-stream")
        }
        memo.withLock { $0.append((type, result)) }
        return result
    }

    func directParents(of type: String) -> [String] {
        var result: [String] = []
        for file in subclasses {
            for parent in Self.values(of: type, in: file, first: false) where !result.contains(parent) {
                result.append(parent)
            }
        }
        if type.hasPrefix("text/") && type != "text/plain" && !result.contains("text/plain") {
            result.append("text/plain")
        }
        let streamable = !type.hasPrefix("inode/") && type != "application/octet-stream"
        if streamable && !result.contains("application/octet-stream") {
            result.append("application/octet-stream")
        }
        return result
    }

    /// The values of the `key value` lines whose key is `key`, in file order (only the first
    /// when `first`). A key runs to the line's first space; the value is trimmed of blanks and
    /// a CR; a line without both is skipped. Split on bytes: this runs in every process that
    /// asks (a thumbnailer included).
    private static func values(of key: String, in file: [UInt8], first: Bool) -> [String] {
        var key = key + " "
        return key.withUTF8 { key in
            var result: [String] = []
            file.withUnsafeBufferPointer { bytes in
                guard key.count > 1 else { return }
                let count = bytes.count
                var from = 0
                // Each occurrence of "key " (memmem; a byte loop over the ~30 kB file cost ~0.25 M
                // instructions per question); one that does not start a line is skipped.
                while let start = MemorySearch.firstOffset(of: UnsafeRawBufferPointer(key), in: UnsafeRawBufferPointer(bytes), from: from) {
                    guard start == 0 || bytes[start - 1] == 0x0A else {
                        from = start + 1
                        continue
                    }
                    var lineEnd = start + key.count
                    while lineEnd < count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
                    from = lineEnd + 1
                    var valueStart = start + key.count, valueEnd = lineEnd
                    while valueStart < valueEnd && (bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09) { valueStart += 1 }
                    while valueEnd > valueStart && (bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 || bytes[valueEnd - 1] == 0x0D) { valueEnd -= 1 }
                    guard valueEnd > valueStart else { continue }
                    result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self))
                    if first { return }
                }
            }
            return result
        }
    }

    /// The whole file, or nil if it cannot be read (a missing `subclasses` file is normal).
    static func contents(of path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
        defer { try? fd.close() }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard let count = try? chunk.withUnsafeMutableBytes({ raw in Result { () throws(Errno) in try fd.read(into: raw) } }).get() else {
                return nil
            }
            if count == 0 { return result }
            result += chunk[..<count]
        }
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    static func mimeDirectories() -> [String] {
        let home = DirectoryPath.home(environment("HOME"))
        let dataHome = environment("XDG_DATA_HOME") ?? home + "/.local/share"
        let dataDirs = (environment("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        return ([dataHome] + dataDirs).map { $0 + "/mime" }
    }
}
