/// The EXIF block at the start of a JPEG (its APP1 `Exif` segment) or a TIFF file (the file
/// itself): a TIFF structure of IFDs whose entries are read with bounds checked — a tag's value
/// past the bytes given is absent, never a crash. Reads only; nothing is decoded.
struct ExifTIFF {
    let bytes: [UInt8]
    let little: Bool

    /// An IFD entry (12 bytes): its tag, type, count and where its value is.
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        /// The entry's offset within the TIFF block (its value field is at +8).
        let offset: Int
    }

    /// The TIFF block of `fileStart` (a JPEG's or TIFF file's first bytes), nil when none.
    init?(fileStart b: [UInt8]) {
        if b.count > 4, b[0] == 0xFF, b[1] == 0xD8 {
            var i = 2
            var found: [UInt8]?
            while i + 4 <= b.count {
                guard b[i] == 0xFF else { break }
                let marker = b[i + 1]
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
                if marker == 0xDA || marker == 0xD9 { break }  // image data starts: no EXIF before it
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2 else { break }
                let start = i + 4
                if marker == 0xE1, start + 6 <= b.count, Array(b[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                    found = Array(b[(start + 6)..<min(b.count, i + 2 + length)])
                    break
                }
                i += 2 + length
            }
            guard let found else { return nil }
            self.init(tiff: found)
        } else {
            self.init(tiff: b)
        }
    }

    init?(tiff: [UInt8]) {
        guard tiff.count >= 8, (tiff[0] == 0x49 && tiff[1] == 0x49) || (tiff[0] == 0x4D && tiff[1] == 0x4D) else { return nil }
        bytes = tiff
        little = tiff[0] == 0x49
    }

    func u16(_ o: Int) -> Int? {
        guard o >= 0, o + 2 <= bytes.count else { return nil }
        return little ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : Int(bytes[o]) << 8 | Int(bytes[o + 1])
    }

    func u32(_ o: Int) -> Int? {
        guard let high = u16(little ? o + 2 : o), let low = u16(little ? o : o + 2) else { return nil }
        return high << 16 | low
    }

    /// The first IFD's offset.
    var firstIFD: Int? { u32(4) }

    /// The entries of the IFD at `offset` (at most 512).
    func entries(at offset: Int) -> [Entry] {
        guard let count = u16(offset) else { return [] }
        return (0..<min(count, 512)).compactMap { index in
            let o = offset + 2 + index * 12
            guard let tag = u16(o), let type = u16(o + 2), let count = u32(o + 4) else { return nil }
            return Entry(tag: tag, type: type, count: count, offset: o)
        }
    }

    /// The bytes an entry's value occupies: in the entry when they fit in 4, else at its offset.
    private func valueOffset(_ entry: Entry, size: Int) -> Int? {
        let (total, overflow) = entry.count.multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        return total <= 4 ? entry.offset + 8 : u32(entry.offset + 8)
    }

    /// A SHORT or LONG value.
    func integer(_ entry: Entry) -> Int? {
        switch entry.type {
        case 3: return valueOffset(entry, size: 2).flatMap(u16)
        case 4: return valueOffset(entry, size: 4).flatMap(u32)
        default: return nil
        }
    }

    /// A RATIONAL (or SRATIONAL, read unsigned) value, nil for a zero denominator.
    func rational(_ entry: Entry) -> Double? {
        guard entry.type == 5 || entry.type == 10, let o = valueOffset(entry, size: 8),
              let numerator = u32(o), let denominator = u32(o + 4), denominator != 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    /// Every RATIONAL of an entry (GPS's degrees, minutes, seconds), nil when one has a zero
    /// denominator or the entry holds more than 16.
    func rationals(_ entry: Entry) -> [Double]? {
        guard entry.type == 5 || entry.type == 10, entry.count <= 16, let o = valueOffset(entry, size: 8) else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            guard let numerator = u32(o + index * 8), let denominator = u32(o + index * 8 + 4), denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// An ASCII value (NUL-terminated; trailing spaces dropped), nil when empty.
    func text(_ entry: Entry) -> String? {
        guard entry.type == 2, entry.count > 0, entry.count <= 4096, let o = valueOffset(entry, size: 1),
              o >= 0, o + entry.count <= bytes.count else { return nil }
        var value = Array(bytes[o..<(o + entry.count)])
        if let nul = value.firstIndex(of: 0) { value = Array(value[..<nul]) }
        let string = String(decoding: value, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return string.isEmpty ? nil : string
    }
}
