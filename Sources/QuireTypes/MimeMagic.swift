/// The magic rules of shared-mime-info as `update-mime-database` compiles them into each
/// `$XDG_DATA_DIRS/mime/mime.cache` — the file GIO's xdgmime matches content against.
///
/// GIO tells which type a file's first bytes match but not how strong that match is, and the
/// shared-mime-info checking order needs both: a magic match overrides a glob only when its
/// priority is 80 or more. This reads the same compiled rules (no hand-written table) to answer
/// two questions about a type GIO has already named: the priority of its rule that matches the
/// data, and whether the type has any rule at all. Read once per process, on first use (only
/// when a file's name and content disagree).
struct MimeMagic: Sendable {
    /// One compiled `mime.cache` and where each type's `<magic>` blocks start in it.
    private struct Cache: Sendable {
        let bytes: [UInt8]
        /// type → offsets of its match entries (16 bytes each: priority, type, matchlets).
        let matches: [String: [Int]]
    }

    private let caches: [Cache]

    static let shared = MimeMagic(directories: MimeHierarchy.mimeDirectories())

    init(directories: [String]) {
        caches = directories.compactMap { directory in
            MimeHierarchy.contents(of: directory + "/mime.cache").flatMap(Self.index)
        }
    }

    /// Whether shared-mime-info has any magic rule for `type`.
    func hasRules(for type: String) -> Bool {
        caches.contains { $0.matches[type] != nil }
    }

    /// The highest priority among `type`'s magic rules that match `data`, or nil when none does.
    func priority(of type: String, matching data: [UInt8]) -> Int? {
        var best: Int?
        for cache in caches {
            for offset in cache.matches[type] ?? [] {
                guard let priority = Self.uint32(cache.bytes, offset),
                      let count = Self.uint32(cache.bytes, offset + 8),
                      let first = Self.uint32(cache.bytes, offset + 12) else { continue }
                if priority <= (best ?? -1) { continue }
                let hit = (0..<min(count, 4096)).contains { index in
                    Self.matchlet(cache.bytes, at: first + 32 * index, data: data, depth: 0)
                }
                if hit { best = priority }
            }
        }
        return best
    }

    // MARK: mime.cache layout (shared-mime-info specification, "The mime.cache file")

    /// Header: CARD16 major (1), CARD16 minor, then list offsets; the magic list's is at byte 24:
    /// CARD32 count, CARD32 max extent, CARD32 first match. All numbers are big-endian.
    private static func index(_ bytes: [UInt8]) -> Cache? {
        guard bytes.count >= 28, bytes[0] == 0, bytes[1] == 1,
              let list = uint32(bytes, 24), let count = uint32(bytes, list),
              let first = uint32(bytes, list + 8) else { return nil }
        var matches: [String: [Int]] = [:]
        for index in 0..<min(count, 1 << 16) {
            let entry = first + 16 * index
            guard let typeOffset = uint32(bytes, entry + 4), let type = string(bytes, typeOffset) else { return nil }
            matches[type, default: []].append(entry)
        }
        return Cache(bytes: bytes, matches: matches)
    }

    /// A matchlet (32 bytes: range start, range length, word size, value length, value offset,
    /// mask offset or 0, child count, first child) matches when its value (under its mask) is
    /// found at one of the offsets in its range and — if it has children — one child matches.
    private static func matchlet(_ bytes: [UInt8], at offset: Int, data: [UInt8], depth: Int) -> Bool {
        guard depth < 32,
              let start = uint32(bytes, offset), let length = uint32(bytes, offset + 4),
              let valueLength = uint32(bytes, offset + 12), let value = uint32(bytes, offset + 16),
              let mask = uint32(bytes, offset + 20), let children = uint32(bytes, offset + 24),
              let firstChild = uint32(bytes, offset + 28),
              value + valueLength <= bytes.count, mask == 0 || mask + valueLength <= bytes.count
        else { return false }
        var found = false
        var position = start
        while position < start + length && position + valueLength <= data.count {
            var equal = true
            for index in 0..<valueLength {
                let maskByte: UInt8 = mask == 0 ? 0xFF : bytes[mask + index]
                if bytes[value + index] & maskByte != data[position + index] & maskByte {
                    equal = false
                    break
                }
            }
            if equal { found = true; break }
            position += 1
        }
        guard found else { return false }
        if children == 0 { return true }
        return (0..<min(children, 4096)).contains { child in
            matchlet(bytes, at: firstChild + 32 * child, data: data, depth: depth + 1)
        }
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> Int? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    private static func string(_ bytes: [UInt8], _ offset: Int) -> String? {
        guard offset >= 0, offset < bytes.count, let end = bytes[offset...].firstIndex(of: 0) else { return nil }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}
