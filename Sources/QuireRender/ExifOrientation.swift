/// Reads the EXIF orientation tag (0x0112) from the start of a JPEG or TIFF file, so that the
/// upright size is known before decoding. gdk-pixbuf applies the rotation itself
/// (`gdk_pixbuf_apply_embedded_orientation`); this only tells whether width and height swap.
enum ExifOrientation {
    /// 1…8 as in the EXIF specification; 1 (upright) when absent or unreadable.
    static func read(_ bytes: [UInt8]) -> Int {
        if bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 { return jpeg(bytes) }
        if bytes.count > 8, (bytes[0] == 0x49 && bytes[1] == 0x49) || (bytes[0] == 0x4D && bytes[1] == 0x4D) {
            return tiff(bytes, base: 0)
        }
        return 1
    }

    /// Whether an orientation swaps width and height (the four transposing ones).
    static func swapsAxes(_ orientation: Int) -> Bool { (5...8).contains(orientation) }

    private static func jpeg(_ b: [UInt8]) -> Int {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return 1 }
            let marker = b[i + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return 1 }  // image data starts: no EXIF before it
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return 1 }
            let start = i + 4
            if marker == 0xE1, start + 6 <= b.count, Array(b[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                let end = min(b.count, i + 2 + length)
                return tiff(Array(b[(start + 6)..<end]), base: 0)
            }
            i += 2 + length
        }
        return 1
    }

    private static func tiff(_ b: [UInt8], base: Int) -> Int {
        guard b.count >= 8 else { return 1 }
        let little = b[0] == 0x49
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let high = u16(little ? o + 2 : o), let low = u16(little ? o : o + 2) else { return nil }
            return high << 16 | low
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return 1 }
        for entry in 0..<min(count, 512) {
            let o = ifd + 2 + entry * 12
            guard let tag = u16(o) else { return 1 }
            if tag == 0x0112, let type = u16(o + 2), type == 3, let value = u16(o + 8), (1...8).contains(value) {
                return value
            }
        }
        return 1
    }
}
