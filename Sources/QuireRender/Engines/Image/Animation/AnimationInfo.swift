import QuireTypes

/// An animated image's frames, length and loop count — GIF, animated PNG, animated WebP,
/// animated JPEG XL and AVIF sequences — read from the container's own blocks (GIF's image
/// descriptors and graphic control extensions, APNG's `acTL`/`fcTL` chunks, WebP's `ANIM`/`ANMF`
/// chunks, JPEG XL's frame headers through libjxl, an AVIF track's sample tables through
/// libavif), no frame decoded.
/// For the card and `info`; nil for a still image.
public struct AnimationInfo: Sendable, Hashable, Codable {
    /// Frames counted (at least 2).
    public var frames: Int
    /// One play's length in seconds (delays under 20 ms count as 100 ms, as browsers play them).
    public var duration: Double
    /// Plays after the first, as the file asks: 0 forever, nil once.
    public var loops: Int?
    /// Whether the count stopped at ``maximumBytes`` read (the file goes on).
    public var isCut: Bool

    public init(frames: Int, duration: Double, loops: Int?, isCut: Bool) {
        self.frames = frames
        self.duration = duration
        self.loops = loops
        self.isCut = isCut
    }

    /// Most bytes of a file scanned.
    public static let maximumBytes = 64 << 20

    /// The animation in `file`, nil when it is not an animated GIF, PNG or WebP.
    public static func read(_ file: InputFile) -> AnimationInfo? {
        guard let bytes = try? file.read(upTo: maximumBytes) else { return nil }
        let cut = file.size > Int64(bytes.count)
        var info: AnimationInfo?
        if bytes.starts(with: Array("GIF8".utf8)) {
            info = gif(bytes)
        } else if bytes.starts(with: PNGChunks.signature) {
            info = png(bytes)
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            info = webp(bytes)
        } else if JPEGXLImage.hasSignature(bytes), !cut {
            // libjxl reads the frame headers (a file over the scan's bytes is not counted).
            info = JPEGXLImage.animation(bytes)?.info
        } else if AVIFSequence.isSequence(bytes), !cut {
            // libavif reads the track's sample tables.
            info = (try? AVIFSequence(bytes: bytes, path: file.path, limits: .standard))?.animation
        }
        guard var info, info.frames > 1 else { return nil }
        info.isCut = cut
        return info
    }

    /// The card's lines: "Frames 24", "Duration 2.4 s, loops forever".
    public var cardRows: [CardRow] {
        let seconds = duration < 10 ? DecimalText.fixed(duration, 2) : DecimalText.fixed(duration, 1)
        let playing = loops.map { $0 == 0 ? "loops forever" : "plays \($0 + 1) times" } ?? "plays once"
        return [CardRow("Frames", "\(frames)" + (isCut ? "+" : "")), CardRow("Animation", "\(seconds) s, \(playing)")]
    }

    /// A frame's delay as players keep it: under 20 ms (0 and 10 ms in GIFs made for old
    /// browsers) is 100 ms.
    static func delay(_ seconds: Double) -> Double { seconds < 0.02 ? 0.1 : seconds }

    // MARK: GIF

    static func gif(_ bytes: [UInt8]) -> AnimationInfo? {
        guard bytes.count >= 13 else { return nil }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
        var info = AnimationInfo(frames: 0, duration: 0, loops: nil, isCut: false)
        var pendingDelay: Double?
        /// Skips data sub-blocks from `offset`; false when the file ends first.
        func skipSubBlocks() -> Bool {
            while offset < bytes.count {
                let size = Int(bytes[offset])
                offset += 1 + size
                if size == 0 { return offset <= bytes.count }
            }
            return false
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:  // extension
                guard offset + 2 < bytes.count else { return info }
                let label = bytes[offset + 1]
                offset += 2
                if label == 0xF9, offset + 5 < bytes.count, bytes[offset] == 4 {
                    pendingDelay = Double(Int(bytes[offset + 2]) | Int(bytes[offset + 3]) << 8) / 100
                } else if label == 0xFF, offset + 16 < bytes.count, bytes[offset] == 11,
                          Array(bytes[(offset + 1)..<(offset + 12)]) == Array("NETSCAPE2.0".utf8), bytes[offset + 12] == 3, bytes[offset + 13] == 1 {
                    info.loops = Int(bytes[offset + 14]) | Int(bytes[offset + 15]) << 8
                }
                guard skipSubBlocks() else { return info }
            case 0x2C:  // image descriptor
                guard offset + 10 <= bytes.count else { return info }
                let packed = bytes[offset + 9]
                offset += 10
                if packed & 0x80 != 0 { offset += 3 << (Int(packed & 7) + 1) }
                offset += 1  // LZW minimum code size
                guard offset <= bytes.count, skipSubBlocks() else { return info }
                info.frames += 1
                info.duration += delay(pendingDelay ?? 0)
                pendingDelay = nil
            default:  // 0x3B trailer, or bytes that are no block
                return info
            }
        }
        return info
    }

    // MARK: APNG

    static func png(_ bytes: [UInt8]) -> AnimationInfo? {
        var offset = 8
        var info: AnimationInfo?
        func uint32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        while offset + 8 <= bytes.count {
            let length = uint32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = offset + 8
            guard data + length <= bytes.count else { break }
            if type == "acTL", length >= 8 {
                let plays = uint32(data + 4)
                info = AnimationInfo(frames: 0, duration: 0, loops: plays == 0 ? 0 : (plays > 1 ? plays - 1 : nil), isCut: false)
            } else if type == "fcTL", length >= 26, info != nil {
                let numerator = Double(Int(bytes[data + 20]) << 8 | Int(bytes[data + 21]))
                let denominator = Int(bytes[data + 22]) << 8 | Int(bytes[data + 23])
                info?.frames += 1
                info?.duration += delay(numerator / Double(denominator == 0 ? 100 : denominator))
            } else if type == "IEND" {
                break
            }
            offset = data + length + 4
        }
        return info
    }

    // MARK: WebP

    static func webp(_ bytes: [UInt8]) -> AnimationInfo? {
        var offset = 12
        var info: AnimationInfo?
        func uint24(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 }
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let length = uint24(offset + 4) | Int(bytes[offset + 7]) << 24
            let data = offset + 8
            guard data + length <= bytes.count else { break }
            if type == "ANIM", length >= 6 {
                let loops = Int(bytes[data + 4]) | Int(bytes[data + 5]) << 8
                info = AnimationInfo(frames: 0, duration: 0, loops: loops == 0 ? 0 : (loops > 1 ? loops - 1 : nil), isCut: false)
            } else if type == "ANMF", length >= 16 {
                if info == nil { info = AnimationInfo(frames: 0, duration: 0, loops: 0, isCut: false) }
                info?.frames += 1
                info?.duration += delay(Double(uint24(data + 12)) / 1000)
            }
            offset = data + length + (length & 1)
        }
        return info
    }
}
