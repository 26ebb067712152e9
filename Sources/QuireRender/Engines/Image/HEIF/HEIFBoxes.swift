/// ISO base media file format boxes (ISO/IEC 14496-12) as HEIF files hold them: a list of the
/// boxes in a range, and big-endian fields read within bounds. For ``HEIFImageSize`` and
/// ``HEIFExif``, which read a file's `meta` box without decoding anything.
enum HEIFBoxes {
    /// The boxes inside the `meta` box of `head` (a file's first bytes), nil when `head` is not
    /// a HEIF file: every HEIF file names the structural brand `mif1` (or `msf1`, a sequence)
    /// in its `ftyp` box.
    static func metaChildren(_ head: [UInt8]) -> [Box]? {
        let top = boxes(in: head, from: 0, to: head.count)
        guard let ftyp = top.first, ftyp.type == "ftyp",
              stride(from: ftyp.body, to: ftyp.end - 3, by: 4).contains(where: { at in
                  let brand = String(decoding: head[at..<(at + 4)], as: UTF8.self)
                  return brand == "mif1" || brand == "msf1"
              }),
              let meta = top.first(where: { $0.type == "meta" }) else { return nil }
        // `meta` is a full box: 4 bytes of version and flags before its children.
        return boxes(in: head, from: meta.body + 4, to: meta.end)
    }

    struct Box {
        let type: String
        /// Where its body starts and where the box ends.
        let body: Int, end: Int
    }

    /// The boxes between `start` and `end`; a box running past `end` ends the list.
    static func boxes(in bytes: [UInt8], from start: Int, to end: Int) -> [Box] {
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
    struct Reader {
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
