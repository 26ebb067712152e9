#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem

/// The is-a relations of shared-mime-info: the `subclasses` and `aliases` files that
/// `update-mime-database` writes under each `$XDG_DATA_DIRS/mime/`, plus the rules the
/// specification states (every `text/*` is a `text/plain`; every stream is an
/// `application/octet-stream`). Read once per process.
struct MimeHierarchy: Sendable {
    private let parents: [String: [String]]
    private let aliases: [String: String]

    static let shared = MimeHierarchy(directories: MimeHierarchy.mimeDirectories())

    init(directories: [String]) {
        var parents: [String: [String]] = [:]
        var aliases: [String: String] = [:]
        // Earlier directories take precedence; read later ones first so earlier ones append last
        // but keep first-seen order for each type.
        for directory in directories {
            for (child, parent) in Self.pairs(in: directory + "/subclasses") {
                if !(parents[child]?.contains(parent) ?? false) { parents[child, default: []].append(parent) }
            }
            for (alias, canonical) in Self.pairs(in: directory + "/aliases") where aliases[alias] == nil {
                aliases[alias] = canonical
            }
        }
        self.parents = parents
        self.aliases = aliases
    }

    func canonical(_ type: String) -> String { aliases[type] ?? type }

    /// All ancestors of `type`, nearest first, without duplicates.
    func ancestors(of type: String) -> [String] {
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
        return result
    }

    func directParents(of type: String) -> [String] {
        var result = parents[type] ?? []
        if type.hasPrefix("text/") && type != "text/plain" && !result.contains("text/plain") {
            result.append("text/plain")
        }
        let streamable = !type.hasPrefix("inode/") && type != "application/octet-stream"
        if streamable && !result.contains("application/octet-stream") {
            result.append("application/octet-stream")
        }
        return result
    }

    /// `child parent` lines, split on bytes: this runs in every process (a thumbnailer
    /// included), and line-by-line Foundation string trimming cost milliseconds.
    private static func pairs(in file: String) -> [(String, String)] {
        guard let data = contents(of: file) else { return [] }
        var result: [(String, String)] = []
        result.reserveCapacity(512)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = 0
            let count = bytes.count
            while lineStart < count {
                var lineEnd = lineStart
                while lineEnd < count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
                var space = lineStart
                while space < lineEnd && bytes[space] != 0x20 { space += 1 }
                if space > lineStart && space < lineEnd {
                    var valueStart = space + 1, valueEnd = lineEnd
                    while valueStart < valueEnd && (bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09) { valueStart += 1 }
                    while valueEnd > valueStart && (bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 || bytes[valueEnd - 1] == 0x0D) { valueEnd -= 1 }
                    if valueEnd > valueStart {
                        result.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<space]), as: UTF8.self),
                                       String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)))
                    }
                }
                lineStart = lineEnd + 1
            }
        }
        return result
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
