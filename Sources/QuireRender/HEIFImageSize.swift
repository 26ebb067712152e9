/// The pixel size of a HEIF file's primary image (HEIC, AVIF), read from its boxes without
/// decoding: the primary item (`pitm`), its properties (`ipma` into `ipco`), its spatial extent
/// (`ispe`) and a turn by a quarter (`irot`), as the decoder will show it.
///
/// gdk-pixbuf's HEIF and AVIF loaders decode the whole image before they say its size, so asking
/// them (`gdk_pixbuf_get_file_info`) costs a full decode — a second one before a thumbnail, and
/// a decoder bomb's whole cost before its size can be refused. The boxes say it first.
struct HEIFImageSize {
    let width: Int
    let height: Int

    /// At most this much of the file's start is read for the `meta` box (where the boxes sit,
    /// before the coded data in every file cameras and encoders write).
    static let headLimit = 1 << 20

    /// Whether `start` (a file's first 12 bytes or more) begins with an `ftyp` box: worth reading
    /// the head for.
    static func mayBeHEIF(_ start: some Collection<UInt8>) -> Bool {
        start.count >= 12 && Array(start.dropFirst(4).prefix(4)) == Array("ftyp".utf8)
    }

    /// The size from `head` (the file's first bytes), or nil when they are not a HEIF file whose
    /// primary image has a spatial extent there.
    init?(head: [UInt8]) {
        let top = Self.boxes(in: head, from: 0, to: head.count)
        // Every HEIF file names the structural brand `mif1` (or `msf1`, a sequence) in `ftyp`.
        guard let ftyp = top.first, ftyp.type == "ftyp",
              stride(from: ftyp.body, to: ftyp.end - 3, by: 4).contains(where: { at in
                  let brand = String(decoding: head[at..<(at + 4)], as: UTF8.self)
                  return brand == "mif1" || brand == "msf1"
              }),
              let meta = top.first(where: { $0.type == "meta" }) else { return nil }
        // `meta` is a full box: 4 bytes of version and flags before its children.
        let children = Self.boxes(in: head, from: meta.body + 4, to: meta.end)
        guard let pitm = children.first(where: { $0.type == "pitm" }),
              let iprp = children.first(where: { $0.type == "iprp" }) else { return nil }
        var reader = Reader(head, from: pitm.body, to: pitm.end)
        guard let version = reader.u8(), reader.skip(3),
              let primary = version == 0 ? reader.u16() : reader.u32() else { return nil }
        let containers = Self.boxes(in: head, from: iprp.body, to: iprp.end)
        guard let ipco = containers.first(where: { $0.type == "ipco" }) else { return nil }
        let properties = Self.boxes(in: head, from: ipco.body, to: ipco.end)
        var width: Int?, height: Int?, quarterTurns = 0
        for ipma in containers where ipma.type == "ipma" {
            for index in Self.associations(of: primary, in: head, ipma) where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                var body = Reader(head, from: property.body, to: property.end)
                switch property.type {
                case "ispe":
                    guard body.skip(4), let w = body.u32(), let h = body.u32(), w > 0, h > 0 else { return nil }
                    (width, height) = (w, h)
                case "irot":
                    quarterTurns = Int(body.u8() ?? 0) & 3
                case "clap":
                    // A clean aperture: libheif crops to it, so the image shown is smaller than
                    // its extent; the loader is asked instead.
                    return nil
                default: break
                }
            }
        }
        guard let width, let height else { return nil }
        (self.width, self.height) = quarterTurns % 2 == 1 ? (height, width) : (width, height)
    }

    /// The 1-based `ipco` indexes `ipma` associates with `item`.
    private static func associations(of item: Int, in bytes: [UInt8], _ ipma: Box) -> [Int] {
        var reader = Reader(bytes, from: ipma.body, to: ipma.end)
        guard let version = reader.u8(), let flagsHigh = reader.u16(), let flagsLow = reader.u8(),
              let count = reader.u32() else { return [] }
        let wideIndexes = (flagsHigh << 8 | flagsLow) & 1 == 1
        for _ in 0..<min(count, 1 << 16) {
            guard let id = version < 1 ? reader.u16() : reader.u32(), let associated = reader.u8() else { return [] }
            var indexes: [Int] = []
            for _ in 0..<associated {
                guard let value = wideIndexes ? reader.u16() : reader.u8() else { return [] }
                indexes.append(value & (wideIndexes ? 0x7FFF : 0x7F))
            }
            if id == item { return indexes }
        }
        return []
    }

    private struct Box {
        let type: String
        /// Where its body starts and where the box ends.
        let body: Int, end: Int
    }

    /// The boxes between `start` and `end`; a box running past `end` ends the list.
    private static func boxes(in bytes: [UInt8], from start: Int, to end: Int) -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end, result.count < 4096 {
            var reader = Reader(bytes, from: offset, to: end)
            guard let size32 = reader.u32(), let typeBytes = reader.bytes(4) else { break }
            var size = size32, header = 8
            if size32 == 1 {
                guard let high = reader.u32(), let low = reader.u32(), high == 0 else { break }
                size = low
                header = 16
            } else if size32 == 0 {
                size = end - offset
            }
            guard size >= header, offset + size <= end else { break }
            result.append(Box(type: String(decoding: typeBytes, as: UTF8.self), body: offset + header, end: offset + size))
            offset += size
        }
        return result
    }

    /// Big-endian fields within bounds; nil past them.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int
        let end: Int

        init(_ bytes: [UInt8], from offset: Int, to end: Int) {
            self.bytes = bytes
            self.offset = offset
            self.end = min(end, bytes.count)
        }

        mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, offset + count <= end else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func skip(_ count: Int) -> Bool { bytes(count) != nil }
        mutating func u8() -> Int? { bytes(1).map { Int($0[$0.startIndex]) } }
        mutating func u16() -> Int? { bytes(2).map { $0.reduce(0) { $0 << 8 | Int($1) } } }
        mutating func u32() -> Int? { bytes(4).map { $0.reduce(0) { $0 << 8 | Int($1) } } }
    }
}
