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
        // The bytes may be the first 8 KiB of a thumbnail (ThumbnailCache reads no more when the
        // keys are there): a tEXt chunk whose CRC was cut off still counts.
        forEachChunk(bytes, needsCRC: false) { type, data, _ in
            if type == typeIDAT || type == typeIEND { return false }
            if type == typeTEXt, let nul = bytes[data].firstIndex(of: 0) {
                result[latin1(bytes[data.lowerBound..<nul])] = latin1(bytes[(nul + 1)..<data.upperBound])
            }
            return true
        }
        return result
    }

    /// Chunk types as ``forEachChunk(_:needsCRC:_:)`` gives them (the four letters, big-endian).
    private static let typeIHDR: UInt32 = 0x4948_4452, typeIDAT: UInt32 = 0x4944_4154, typeIEND: UInt32 = 0x4945_4E44,
                       typeTEXt: UInt32 = 0x7445_5874

    /// Calls `body` with each chunk after the signature — its type, where its data is, and where
    /// the whole chunk is (length to CRC) — until `body` returns false. A chunk is read when its
    /// data is in `bytes` and, with `needsCRC`, its CRC too (without, the whole chunk may end
    /// past `bytes`). Returns false when one is not (the bytes end inside it), true otherwise.
    /// It allocates nothing, so that reading the keys of many cached thumbnails stays cheap.
    @discardableResult
    private static func forEachChunk(_ bytes: UnsafeRawBufferPointer, needsCRC: Bool = true,
                                     _ body: (_ type: UInt32, _ data: Range<Int>, _ whole: Range<Int>) -> Bool) -> Bool {
        let crc = needsCRC ? 4 : 0
        var offset = 8
        while offset + 8 + crc <= bytes.count {
            let data = (offset + 8)..<(offset + 8 + Int(readUInt32(bytes, offset)))
            guard data.upperBound + crc <= bytes.count else { return false }
            guard body(readUInt32(bytes, offset + 4), data, offset..<(data.upperBound + 4)) else { return true }
            offset = data.upperBound + 4
        }
        return true
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
        var inserted = false
        let walked = png.withUnsafeBytes { png in
            forEachChunk(png) { type, data, whole in
                var keep = true
                if type == typeTEXt, let nul = png[data].firstIndex(of: 0) {
                    keep = !keys.contains(String(decoding: png[data.lowerBound..<nul], as: UTF8.self))
                }
                if keep { out.append(contentsOf: png[whole]) }
                if !inserted && type == typeIHDR {
                    for entry in text { out.append(contentsOf: chunk("tEXt", latin1Bytes(entry.key) + [0] + latin1Bytes(entry.value))) }
                    inserted = true
                }
                return true
            }
        }
        return walked && inserted ? out : nil
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
        return bytes.withUnsafeBytes { bytes in
            var first = true, sawData = false, complete = false
            forEachChunk(bytes) { type, _, whole in
                if first && type != typeIHDR { return false }
                first = false
                let stored = readUInt32(bytes, whole.upperBound - 4)
                if CRC32.checksum(Array(bytes[(whole.lowerBound + 4)..<(whole.upperBound - 4)])) != stored { return false }
                if type == typeIDAT { sawData = true }
                if type == typeIEND {
                    complete = sawData && whole.upperBound == bytes.count
                    return false
                }
                return true
            }
            return complete
        }
    }

    /// The IHDR facts of a PNG: width, height, bit depth, colour type, interlace method.
    public static func header(_ bytes: [UInt8]) -> (width: Int, height: Int, bitDepth: Int, colorType: Int, interlace: Int)? {
        guard bytes.count >= 33, Array(bytes[0..<8]) == signature, String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR" else {
            return nil
        }
        let (width, height) = bytes.withUnsafeBytes { (Int(readUInt32($0, 16)), Int(readUInt32($0, 20))) }
        return (width, height, Int(bytes[24]), Int(bytes[25]), Int(bytes[28]))
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
