/// A JPEG turned without touching its pixels (issue 36: "a JPEG rotation loses nothing"): the
/// EXIF orientation tag (IFD0, tag 274) is set to the orientation the turn makes, and every
/// other byte of the file stays as it was — the compressed picture, the other EXIF fields, the
/// colour profile. Where the EXIF block has no orientation, IFD0 is written again with it at the
/// block's end (the old entries' values stay where they are); where there is no EXIF block, one
/// holding only the orientation is put after the JFIF header.
public enum JPEGOrientation {
    /// Why a JPEG cannot be turned this way, in one line.
    public struct Failure: Error, Sendable, Hashable {
        public let reason: String
    }

    /// An EXIF orientation (1…8) as a mirror across the vertical axis (first) then quarter turns
    /// clockwise: what a viewer does to the stored picture to show it.
    static func parts(_ orientation: Int) -> (quarterTurns: Int, mirrored: Bool) {
        switch orientation {
        case 2: return (0, true)
        case 3: return (2, false)
        case 4: return (2, true)
        case 5: return (3, true)
        case 6: return (1, false)
        case 7: return (1, true)
        case 8: return (3, false)
        default: return (0, false)
        }
    }

    /// The orientation that shows the picture `quarterTurns` further clockwise than `orientation` does.
    public static func turned(_ orientation: Int, by quarterTurns: Int) -> Int {
        let (turns, mirrored) = parts(orientation)
        let wanted = (((turns + quarterTurns) % 4) + 4) % 4
        return (1...8).first { parts($0) == (wanted, mirrored) } ?? 1
    }

    /// The orientation `bytes` (a whole JPEG) declares: 1 when it has none.
    public static func orientation(of bytes: [UInt8]) -> Int {
        guard let exif = try? exifSegment(bytes), let found = try? entry(in: bytes, exif: exif) else { return 1 }
        return found.value ?? 1
    }

    /// `bytes` (a whole JPEG) shown `quarterTurns` quarters further clockwise.
    public static func turned(_ bytes: [UInt8], by quarterTurns: Int) throws(Failure) -> [UInt8] {
        try setting(bytes) { turned($0, by: quarterTurns) }
    }

    /// `bytes` with the orientation `make(orientation now)`.
    static func setting(_ bytes: [UInt8], _ make: (Int) -> Int) throws(Failure) -> [UInt8] {
        guard let exif = try exifSegment(bytes) else {
            let value = make(1)
            return value == 1 ? bytes : insertingExif(bytes, orientation: value)
        }
        let found = try entry(in: bytes, exif: exif)
        let value = make(found?.value ?? 1)
        if let found {
            var out = bytes
            let (high, low) = (UInt8(value >> 8), UInt8(value & 0xff))
            if exif.bigEndian {
                out[found.valueOffset] = high; out[found.valueOffset + 1] = low
            } else {
                out[found.valueOffset] = low; out[found.valueOffset + 1] = high
            }
            return out
        }
        if value == 1 { return bytes }
        return try addingEntry(bytes, exif: exif, orientation: value)
    }

    /// Where the EXIF block (`APP1` beginning `Exif\0\0`) is: its segment, its TIFF header.
    struct ExifSegment {
        /// The segment's `FF E1` marker.
        let start: Int
        /// The TIFF header (the base of every offset in the block).
        let tiff: Int
        /// One past the segment's last byte.
        let end: Int
        let bigEndian: Bool
    }

    /// The EXIF segment, nil when there is none before the picture's data.
    static func exifSegment(_ bytes: [UInt8]) throws(Failure) -> ExifSegment? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw Failure(reason: "not a JPEG (no start-of-image marker)") }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { throw Failure(reason: "the JPEG's header is damaged (no marker at byte \(at))") }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }   // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }   // the picture's data: no EXIF before it
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { throw Failure(reason: "the JPEG's header is damaged (a segment runs past the end)") }
            let payload = at + 4
            if marker == 0xE1, length >= 16, Array(bytes[payload..<payload + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                let tiff = payload + 6
                let order = (bytes[tiff], bytes[tiff + 1])
                guard order == (0x4D, 0x4D) || order == (0x49, 0x49) else { throw Failure(reason: "the JPEG's EXIF block is damaged (no byte order)") }
                return ExifSegment(start: at, tiff: tiff, end: at + 2 + length, bigEndian: order.0 == 0x4D)
            }
            at += 2 + length
        }
        throw Failure(reason: "the JPEG ends before its picture")
    }

    private static func u16(_ bytes: [UInt8], _ at: Int, _ big: Bool) -> Int {
        big ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at])
    }

    private static func u32(_ bytes: [UInt8], _ at: Int, _ big: Bool) -> Int {
        big ? u16(bytes, at, true) << 16 | u16(bytes, at + 2, true) : u16(bytes, at + 2, false) << 16 | u16(bytes, at, false)
    }

    /// IFD0: where it is and how many entries it has, checked to lie inside the block.
    private static func firstDirectory(_ bytes: [UInt8], exif: ExifSegment) throws(Failure) -> (at: Int, count: Int) {
        guard exif.tiff + 8 <= exif.end else { throw Failure(reason: "the JPEG's EXIF block is damaged (too short)") }
        let at = exif.tiff + u32(bytes, exif.tiff + 4, exif.bigEndian)
        guard at >= exif.tiff + 8, at + 2 <= exif.end else { throw Failure(reason: "the JPEG's EXIF block is damaged (IFD0 outside it)") }
        let count = u16(bytes, at, exif.bigEndian)
        guard at + 2 + count * 12 + 4 <= exif.end else { throw Failure(reason: "the JPEG's EXIF block is damaged (IFD0 runs past it)") }
        return (at, count)
    }

    /// The orientation entry of IFD0: its value and where its value's two bytes are; nil when absent.
    private static func entry(in bytes: [UInt8], exif: ExifSegment) throws(Failure) -> (value: Int?, valueOffset: Int)? {
        let (at, count) = try firstDirectory(bytes, exif: exif)
        for index in 0..<count {
            let entry = at + 2 + index * 12
            guard u16(bytes, entry, exif.bigEndian) == 0x0112 else { continue }
            guard u16(bytes, entry + 2, exif.bigEndian) == 3 else { throw Failure(reason: "the JPEG's orientation tag is not a number") }
            let value = u16(bytes, entry + 8, exif.bigEndian)
            return ((1...8).contains(value) ? value : nil, entry + 8)
        }
        return nil
    }

    /// The EXIF block with IFD0 written again at its end, the orientation entry added in tag order.
    private static func addingEntry(_ bytes: [UInt8], exif: ExifSegment, orientation: Int) throws(Failure) -> [UInt8] {
        let big = exif.bigEndian
        let (at, count) = try firstDirectory(bytes, exif: exif)
        func u16Bytes(_ value: Int) -> [UInt8] { big ? [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] : [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
        func u32Bytes(_ value: Int) -> [UInt8] { big ? u16Bytes(value >> 16) + u16Bytes(value & 0xffff) : u16Bytes(value & 0xffff) + u16Bytes(value >> 16) }
        var entries = (0..<count).map { index -> [UInt8] in Array(bytes[at + 2 + index * 12 ..< at + 14 + index * 12]) }
        let added = u16Bytes(0x0112) + u16Bytes(3) + u32Bytes(1) + u16Bytes(orientation) + [0, 0]
        let place = entries.firstIndex { u16($0, 0, big) > 0x0112 } ?? entries.count
        entries.insert(added, at: place)
        var block = Array(bytes[exif.tiff..<exif.end])
        if block.count % 2 == 1 { block.append(0) }   // IFDs begin on a word boundary
        let newDirectory = block.count
        block += u16Bytes(entries.count) + entries.flatMap { $0 } + Array(bytes[at + 2 + count * 12 ..< at + 2 + count * 12 + 4])
        let header = u32Bytes(newDirectory)
        block.replaceSubrange(4..<8, with: header)
        let length = 2 + 6 + block.count
        guard length <= 0xFFFF else { throw Failure(reason: "the JPEG's EXIF block is full (no room for an orientation)") }
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xff), 0x45, 0x78, 0x69, 0x66, 0, 0] + block
        return Array(bytes[..<exif.start]) + segment + Array(bytes[exif.end...])
    }

    /// A new EXIF block holding only the orientation, after SOI and a JFIF header (APP0).
    private static func insertingExif(_ bytes: [UInt8], orientation: Int) -> [UInt8] {
        var at = 2
        if bytes.count >= 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            at = min(bytes.count, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xff), 0, 0, 0, 0, 0, 0]
        let length = 2 + 6 + tiff.count
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xff), 0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        return Array(bytes[..<at]) + segment + Array(bytes[at...])
    }

    /// The segments of `bytes` worth keeping when the picture is encoded again (a crop): the
    /// EXIF block with its orientation set to upright (the new pixels are upright), the ICC
    /// colour profile (APP2) and XMP; empty for a JPEG whose header cannot be read.
    public static func metadataSegments(_ bytes: [UInt8]) -> [UInt8] {
        guard let upright = try? setting(bytes, { _ in 1 }) else { return [] }
        var kept: [UInt8] = []
        var at = 2
        while at + 4 <= upright.count, upright[at] == 0xFF {
            let marker = upright[at + 1]
            if marker == 0xDA || marker == 0xD9 || marker == 0xFF { break }
            let length = Int(upright[at + 2]) << 8 | Int(upright[at + 3])
            guard length >= 2, at + 2 + length <= upright.count else { break }
            if marker == 0xE1 || marker == 0xE2 { kept += upright[at..<at + 2 + length] }
            at += 2 + length
        }
        return kept
    }

    /// A JPEG just encoded with `segments` (``metadataSegments(_:)``) put after its JFIF header.
    public static func inserting(_ segments: [UInt8], into bytes: [UInt8]) -> [UInt8] {
        guard !segments.isEmpty, bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return bytes }
        var at = 2
        if bytes.count >= 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            at = min(bytes.count, 4 + (Int(bytes[4]) << 8 | Int(bytes[5])))
        }
        return Array(bytes[..<at]) + segments + Array(bytes[at...])
    }
}
