import QuireTypes

/// The EXIF block of a HEIF file (HEIC, AVIF): its `Exif` item, named in the item information
/// box (`iinf`), found through the item locations (`iloc`) and read from the file. The item's
/// data starts with the offset of the TIFF header in it (HEIF, ISO/IEC 23008-12, annex A).
/// Nothing is decoded; an item the boxes do not place within the file is no block.
enum HEIFExif {
    /// Most bytes of an EXIF item read (JPEG's APP1 holds at most 64 KiB; cameras' stay below).
    static let maximumBytes = 1 << 20

    /// The TIFF bytes of the first `Exif` item of the HEIF file whose first bytes are `head`,
    /// nil when there is none (or `head` is not a HEIF file).
    static func tiff(head: [UInt8], file: InputFile) -> [UInt8]? {
        guard let children = HEIFBoxes.metaChildren(head),
              let iinf = children.first(where: { $0.type == "iinf" }),
              let iloc = children.first(where: { $0.type == "iloc" }),
              let item = exifItem(head, iinf) else { return nil }
        guard let extents = locations(of: item, in: head, iloc), !extents.isEmpty else { return nil }
        var data: [UInt8] = []
        for (offset, length) in extents {
            guard length > 0, data.count + length <= maximumBytes,
                  let bytes = try? file.read(upTo: length, at: Int64(offset)), bytes.count == length else { return nil }
            data += bytes
        }
        guard data.count >= 4 else { return nil }
        let start = 4 + (Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]))
        guard start < data.count - 8 else { return nil }
        return Array(data[start...])
    }

    /// The ID of the first item of type `Exif` in the item information box.
    private static func exifItem(_ head: [UInt8], _ iinf: HEIFBoxes.Box) -> Int? {
        var reader = HEIFBoxes.Reader(head, from: iinf.body, to: iinf.end)
        guard let version = reader.u8(), reader.skip(3), (version == 0 ? reader.u16() : reader.u32()) != nil else { return nil }
        for entry in HEIFBoxes.boxes(in: head, from: reader.offset, to: iinf.end) where entry.type == "infe" {
            var body = HEIFBoxes.Reader(head, from: entry.body, to: entry.end)
            // Versions 2 and 3 carry the item type (older ones only MIME content).
            guard let entryVersion = body.u8(), entryVersion >= 2, body.skip(3),
                  let id = entryVersion == 2 ? body.u16() : body.u32(), body.skip(2),
                  let type = body.bytes(4) else { continue }
            if type.elementsEqual("Exif".utf8) { return id }
        }
        return nil
    }

    /// Where `item`'s data lies in the file: (offset, length) of each extent; nil when the item
    /// is not there or is placed other than by file offset (in an `idat` box, or by reference).
    private static func locations(of item: Int, in head: [UInt8], _ iloc: HEIFBoxes.Box) -> [(Int, Int)]? {
        var reader = HEIFBoxes.Reader(head, from: iloc.body, to: iloc.end)
        guard let version = reader.u8(), version <= 2, reader.skip(3),
              let sizes = reader.u8(), let moreSizes = reader.u8() else { return nil }
        let offsetSize = sizes >> 4, lengthSize = sizes & 15, baseOffsetSize = moreSizes >> 4
        let indexSize = version == 0 ? 0 : moreSizes & 15
        func field(_ size: Int) -> Int? {
            switch size {
            case 0: return 0
            case 4: return reader.u32()
            case 8:
                guard let high = reader.u32(), let low = reader.u32(), high < 1 << 30 else { return nil }
                return high << 32 | low
            default: return nil
            }
        }
        guard let count = version < 2 ? reader.u16() : reader.u32() else { return nil }
        for _ in 0..<min(count, 1 << 16) {
            guard let id = version < 2 ? reader.u16() : reader.u32() else { return nil }
            var method = 0
            if version >= 1 {
                guard let value = reader.u16() else { return nil }
                method = value & 15
            }
            guard reader.skip(2), let base = field(baseOffsetSize), let extentCount = reader.u16() else { return nil }
            var extents: [(Int, Int)] = []
            for _ in 0..<extentCount {
                guard field(indexSize) != nil, let offset = field(offsetSize), let length = field(lengthSize) else { return nil }
                extents.append((base + offset, length))
            }
            if id == item { return method == 0 ? extents : nil }
        }
        return nil
    }
}
