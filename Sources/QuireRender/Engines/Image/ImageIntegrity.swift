/// Detects truncated image files from their structure. gdk-pixbuf's incremental loaders return
/// whatever rows arrived when data ends early (a PNG cut in half loads as half an image), so
/// Quire checks the end marker each format requires before trusting a decode.
enum ImageIntegrity {
    /// Why the file looks truncated, or nil when its end is intact or the format has no marker.
    /// - Parameters:
    ///   - head: the first bytes (at least 16 when the file is that long).
    ///   - tail: the last bytes (up to 1 KiB).
    ///   - size: the total size.
    static func truncation(head: [UInt8], tail: [UInt8], size: Int) -> String? {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IEND chunk: length 0, "IEND", CRC AE 42 60 82 — anywhere in the last KiB
            // (some writers append bytes after it).
            return contains(tail, [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
                ? nil : "the PNG is truncated (no IEND chunk)"
        }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            return contains(tail, [0xFF, 0xD9]) ? nil : "the JPEG is truncated (no end-of-image marker)"
        }
        if head.starts(with: Array("GIF8".utf8)) {
            return tail.contains(0x3B) ? nil : "the GIF is truncated (no trailer)"
        }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            let declared = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            return size >= declared + 8 ? nil : "the WebP is truncated (\(size) of \(declared + 8) bytes)"
        }
        if head.count >= 6, head.starts(with: Array("BM".utf8)) {
            let declared = Int(head[2]) | Int(head[3]) << 8 | Int(head[4]) << 16 | Int(head[5]) << 24
            return declared == 0 || size >= declared ? nil : "the BMP is truncated (\(size) of \(declared) bytes)"
        }
        return nil
    }

    /// Why the header must not reach gdk-pixbuf, or nil. A BMP's info-header size field (bytes
    /// 14–17) is one of a few fixed sizes; gdk-pixbuf's BMP loader grows its header buffer to that
    /// field *before* it rejects an unknown size, so a 10-byte file claiming a 3.7 GB header made
    /// it ask for 3.7 GB (found by fuzz-thumbnail, input kept in Fuzz/corpus/thumbnail).
    /// - Parameter head: the first bytes (at least 18 for the BMP check).
    static func unsafeHeader(head: [UInt8]) -> String? {
        if head.count >= 2, head.starts(with: Array("BM".utf8)) {
            guard head.count >= 18 else { return "the BMP is truncated (no info header)" }
            let infoSize = Int(head[14]) | Int(head[15]) << 8 | Int(head[16]) << 16 | Int(head[17]) << 24
            // BITMAPCOREHEADER 12, OS/2 2.x 16 or 64, BITMAPINFOHEADER 40, V2 52, V3 56, V4 108, V5 124.
            guard [12, 16, 40, 52, 56, 64, 108, 124].contains(infoSize) else {
                return "not a valid BMP (an info header of \(infoSize) bytes)"
            }
        }
        return nil
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}
