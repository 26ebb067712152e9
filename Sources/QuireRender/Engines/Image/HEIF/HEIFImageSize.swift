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
        guard let children = HEIFBoxes.metaChildren(head),
              let pitm = children.first(where: { $0.type == "pitm" }),
              let iprp = children.first(where: { $0.type == "iprp" }) else { return nil }
        var reader = HEIFBoxes.Reader(head, from: pitm.body, to: pitm.end)
        guard let version = reader.u8(), reader.skip(3),
              let primary = version == 0 ? reader.u16() : reader.u32() else { return nil }
        let containers = HEIFBoxes.boxes(in: head, from: iprp.body, to: iprp.end)
        guard let ipco = containers.first(where: { $0.type == "ipco" }) else { return nil }
        let properties = HEIFBoxes.boxes(in: head, from: ipco.body, to: ipco.end)
        var width: Int?, height: Int?, quarterTurns = 0
        for ipma in containers where ipma.type == "ipma" {
            for index in Self.associations(of: primary, in: head, ipma) where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                var body = HEIFBoxes.Reader(head, from: property.body, to: property.end)
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
    private static func associations(of item: Int, in bytes: [UInt8], _ ipma: HEIFBoxes.Box) -> [Int] {
        var reader = HEIFBoxes.Reader(bytes, from: ipma.body, to: ipma.end)
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
}
