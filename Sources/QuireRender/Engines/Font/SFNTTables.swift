internal import CZlib

/// The few facts of an OpenType/TrueType font that fontconfig does not give: the glyph count
/// (`maxp`) and the designer, manufacturer and version strings (`name` IDs 9, 8, 5). Read from
/// the file's bytes with every offset checked: a font is untrusted input like any document.
/// Handles single fonts (`0x00010000`, `OTTO`, `true`), collections (`ttcf`, one face per
/// index) and WOFF 1.0 (tables inflated with zlib, each bounded). WOFF2's tables are
/// Brotli-compressed and transformed: its faces get none of these facts.
struct SFNTTables {
    struct Face: Equatable {
        var glyphCount: Int?
        var designer: String?
        var manufacturer: String?
        var version: String?
    }

    /// Most bytes one WOFF table may inflate to (a `name` table is a few kilobytes).
    static let maximumTableBytes = 4 << 20

    /// The faces in `bytes`, in collection order; empty when the bytes are not an sfnt font.
    static func faces(in bytes: [UInt8]) -> [Face] {
        let data = Bytes(bytes)
        guard let tag = data.u32(0) else { return [] }
        switch tag {
        case 0x7474_6366:   // 'ttcf'
            guard let count = data.u32(8), count > 0, count <= 4096 else { return [] }
            return (0..<Int(count)).compactMap { index -> Face? in
                guard let offset = data.u32(12 + 4 * index) else { return nil }
                return face(at: Int(offset), in: data)
            }
        case 0x0001_0000, 0x4F54_544F, 0x7472_7565:   // TrueType, 'OTTO', 'true'
            return face(at: 0, in: data).map { [$0] } ?? []
        case 0x774F_4646:   // 'wOFF'
            return woffFace(data).map { [$0] } ?? []
        default:
            return []
        }
    }

    private static func face(at offset: Int, in data: Bytes) -> Face? {
        guard let tableCount = data.u16(offset + 4), tableCount <= 1024 else { return nil }
        var tables: [UInt32: ArraySlice<UInt8>] = [:]
        for index in 0..<Int(tableCount) {
            let record = offset + 12 + 16 * index
            guard let tag = data.u32(record), let start = data.u32(record + 8), let length = data.u32(record + 12),
                  let slice = data.slice(Int(start), Int(length)) else { return nil }
            tables[tag] = slice
        }
        return face(tables: tables)
    }

    private static func woffFace(_ data: Bytes) -> Face? {
        guard let tableCount = data.u16(12), tableCount <= 1024 else { return nil }
        var tables: [UInt32: ArraySlice<UInt8>] = [:]
        for index in 0..<Int(tableCount) {
            let record = 44 + 20 * index
            guard let tag = data.u32(record), let start = data.u32(record + 4), let compressed = data.u32(record + 8),
                  let original = data.u32(record + 12) else { return nil }
            // Only the tables read below are inflated.
            guard tag == Tag.maxp || tag == Tag.name else { continue }
            guard let slice = data.slice(Int(start), Int(compressed)) else { return nil }
            if compressed == original {
                tables[tag] = slice
            } else if compressed < original, original <= maximumTableBytes, let inflated = inflate(slice, to: Int(original)) {
                tables[tag] = inflated[...]
            }
        }
        return face(tables: tables)
    }

    private enum Tag {
        static let maxp: UInt32 = 0x6D61_7870
        static let name: UInt32 = 0x6E61_6D65
    }

    private static func face(tables: [UInt32: ArraySlice<UInt8>]) -> Face {
        var face = Face()
        if let maxp = tables[Tag.maxp], let glyphs = Bytes(Array(maxp)).u16(4) { face.glyphCount = Int(glyphs) }
        if let name = tables[Tag.name] {
            let names = NameTable(Bytes(Array(name)))
            face.designer = names.string(id: 9)
            face.manufacturer = names.string(id: 8)
            face.version = names.string(id: 5)
        }
        return face
    }

    private static func inflate(_ slice: ArraySlice<UInt8>, to length: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: length)
        var produced = uLongf(length)
        let status = slice.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                uncompress(out.baseAddress, &produced, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(produced) == length else { return nil }
        return output
    }

    /// The `name` table: Windows Unicode records (English first), else Macintosh Roman ones.
    private struct NameTable {
        let data: Bytes

        init(_ data: Bytes) { self.data = data }

        func string(id wanted: UInt16) -> String? {
            guard let count = data.u16(2), let storage = data.u16(4) else { return nil }
            var best: (rank: Int, value: String)?
            for index in 0..<Int(count) {
                let record = 6 + 12 * index
                guard let platform = data.u16(record), let encoding = data.u16(record + 2),
                      let language = data.u16(record + 4), let id = data.u16(record + 6),
                      let length = data.u16(record + 8), let offset = data.u16(record + 10),
                      id == wanted, let bytes = data.slice(Int(storage) + Int(offset), Int(length)) else { continue }
                let rank: Int
                let value: String
                switch (platform, encoding) {
                case (3, 1), (3, 10), (0, _):
                    rank = language == 0x409 || platform == 0 ? 0 : 1
                    value = Self.utf16BigEndian(bytes)
                case (1, 0):
                    rank = 2
                    value = String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
                default:
                    continue
                }
                let cleaned = value.filter { !$0.isNewline && $0 != "\0" }.trimmingSpaces
                guard !cleaned.isEmpty else { continue }
                if best == nil || rank < best!.rank { best = (rank, cleaned) }
            }
            return best.map { String($0.value.prefix(200)) }
        }

        private static func utf16BigEndian(_ bytes: ArraySlice<UInt8>) -> String {
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return String(decoding: units, as: UTF16.self)
        }
    }

    /// Big-endian reads that answer nil past the end instead of trapping.
    private struct Bytes {
        let storage: [UInt8]

        init(_ storage: [UInt8]) { self.storage = storage }

        func u16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= storage.count else { return nil }
            return UInt16(storage[offset]) << 8 | UInt16(storage[offset + 1])
        }

        func u32(_ offset: Int) -> UInt32? {
            guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
            return UInt32(high) << 16 | UInt32(low)
        }

        func slice(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, length >= 0, offset <= storage.count, length <= storage.count - offset else { return nil }
            return storage[offset..<(offset + length)]
        }
    }
}

private extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first?.isWhitespace == true { view.removeFirst() }
        while view.last?.isWhitespace == true { view.removeLast() }
        return String(view)
    }
}
