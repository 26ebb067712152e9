/// Minimal PNG chunk handling: read the tEXt chunks of a thumbnail, insert tEXt chunks into an
/// encoded PNG, and check that a file is a whole PNG. No pixel decoding.
public enum PNGChunks {
    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The tEXt chunks before the first IDAT, as keyword → text (Latin-1 decoded).
    /// Returns nil when `bytes` does not start like a PNG.
    public static func textChunks(_ bytes: [UInt8]) -> [String: String]? {
        bytes.withUnsafeBufferPointer { textChunks(UnsafeRawBufferPointer($0)) }
    }

    package static func textChunks(_ bytes: UnsafeRawBufferPointer) -> [String: String]? {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var result: [String: String] = [:]
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(readUInt32(bytes, offset))
            let type = (bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7])
            let dataStart = offset + 8
            if type == (0x49, 0x44, 0x41, 0x54) || type == (0x49, 0x45, 0x4E, 0x44) { break }  // IDAT, IEND
            guard dataStart + length <= bytes.count else { break }
            if type == (0x74, 0x45, 0x58, 0x74) {  // tEXt
                let data = bytes[dataStart..<(dataStart + length)]
                if let nul = data.firstIndex(of: 0) {
                    let key = latin1(data[data.startIndex..<nul])
                    let value = latin1(data[(nul + 1)..<data.endIndex])
                    result[key] = value
                }
            }
            offset = dataStart + length + 4
        }
        return result
    }

    private static func latin1(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var string = ""
        string.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return string
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// `png` with `text` inserted as tEXt chunks right after IHDR (and any existing tEXt chunks
    /// with the same keywords removed). Values must be Latin-1; other characters become `?`.
    public static func inserting(text: [(key: String, value: String)], into png: [UInt8]) -> [UInt8]? {
        guard png.count >= 33, Array(png[0..<8]) == signature else { return nil }
        let keys = Set(text.map(\.key))
        var out = signature
        out.reserveCapacity(png.count + text.count * 64)
        var offset = 8
        var inserted = false
        while offset + 12 <= png.count {
            let length = Int(UInt32(png[offset]) << 24 | UInt32(png[offset + 1]) << 16
                             | UInt32(png[offset + 2]) << 8 | UInt32(png[offset + 3]))
            let end = offset + 12 + length
            guard end <= png.count else { return nil }
            let type = Array(png[(offset + 4)..<(offset + 8)])
            var keep = true
            if type == Array("tEXt".utf8) {
                let data = png[(offset + 8)..<(offset + 8 + length)]
                if let nul = data.firstIndex(of: 0), keys.contains(String(decoding: data[data.startIndex..<nul], as: UTF8.self)) {
                    keep = false
                }
            }
            if keep { out.append(contentsOf: png[offset..<end]) }
            if !inserted && type == Array("IHDR".utf8) {
                for entry in text { out.append(contentsOf: chunk("tEXt", latin1Bytes(entry.key) + [0] + latin1Bytes(entry.value))) }
                inserted = true
            }
            offset = end
        }
        return inserted ? out : nil
    }

    static func latin1Bytes(_ string: String) -> [UInt8] {
        string.unicodeScalars.map { $0.value < 0x100 && $0.value != 0 ? UInt8($0.value) : UInt8(ascii: "?") }
    }

    /// One chunk: length, type, data, CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 12)
        let length = UInt32(data.count)
        out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        out += typeBytes
        out += data
        let crc = CRC32.checksum(typeBytes + data)
        out += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return out
    }

    /// Whether `bytes` is a structurally whole PNG: signature, IHDR first, every chunk's CRC
    /// correct, at least one IDAT, and IEND last.
    public static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return false }
        var offset = 8
        var first = true
        var sawData = false
        while offset + 12 <= bytes.count {
            let length = Int(UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                             | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
            let end = offset + 12 + length
            guard end <= bytes.count else { return false }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if first && type != "IHDR" { return false }
            first = false
            let stored = UInt32(bytes[end - 4]) << 24 | UInt32(bytes[end - 3]) << 16 | UInt32(bytes[end - 2]) << 8 | UInt32(bytes[end - 1])
            if CRC32.checksum(Array(bytes[(offset + 4)..<(end - 4)])) != stored { return false }
            if type == "IDAT" { sawData = true }
            if type == "IEND" { return sawData && end == bytes.count }
            offset = end
        }
        return false
    }

    /// The IHDR facts of a PNG: width, height, bit depth, colour type, interlace method.
    public static func header(_ bytes: [UInt8]) -> (width: Int, height: Int, bitDepth: Int, colorType: Int, interlace: Int)? {
        guard bytes.count >= 33, Array(bytes[0..<8]) == signature, String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR" else {
            return nil
        }
        func u32(_ at: Int) -> Int { Int(UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])) }
        return (u32(16), u32(20), Int(bytes[24]), Int(bytes[25]), Int(bytes[28]))
    }

    /// A 1×1 transparent 8-bit RGBA PNG, the body of failure markers.
    package static let emptyImage: [UInt8] = {
        var ihdr: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
        ihdr = chunk("IHDR", ihdr)
        // zlib stream: header, one stored final block of 5 bytes (filter 0 + RGBA 0,0,0,0), Adler-32.
        let raw: [UInt8] = [0, 0, 0, 0, 0]
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        let zlib: [UInt8] = [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF] + raw
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return signature + ihdr + chunk("IDAT", zlib) + chunk("IEND", [])
    }()
}
