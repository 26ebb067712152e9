internal import CAVIF
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// An animated AVIF (an image sequence: brand `avis`, its frames in a track) read by libavif:
/// libheif 1.15, which draws still AVIF images, reads no track. Its frames and their durations
/// from the track's sample tables (nothing decoded), and each frame decoded on request (libavif
/// seeks from the keyframe before it), as 8-bit RGBA. Owns libavif's decoder and its copy of
/// the file; the size is checked against the pixel limit before any frame is decoded.
final class AVIFSequence: FrameSequence {
    private let sequence: UnsafeMutablePointer<quire_avif_sequence>
    let width: Int
    let height: Int
    /// Each frame's delay in milliseconds (as players keep them: ``AnimationInfo/delay(_:)``).
    let delays: [Int]
    private let path: DocumentPath

    /// Whether `head` (a file's first bytes) is an ISOBMFF file whose `ftyp` names the AVIF
    /// image-sequence brand `avis` (as its major brand or a compatible one).
    static func isSequence(_ head: [UInt8]) -> Bool {
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(16, size))
        let avis = Array("avis".utf8)
        if Array(head[8..<12]) == avis { return true }
        return stride(from: 16, to: end - 3, by: 4).contains { Array(head[$0..<$0 + 4]) == avis }
    }

    init(bytes: [UInt8], path: DocumentPath, limits: RenderLimits) throws(DocumentError) {
        let api = try LazyLibraries.avif(path)
        var width: UInt32 = 0, height: UInt32 = 0
        var status = QUIRE_AVIF_OK
        let opened = StandardOutputDiversion.run {
            withUnsafePointer(to: api) { api in
                bytes.withUnsafeBufferPointer { buffer in
                    quire_avif_sequence_open(api, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count,
                                             UInt64(max(0, limits.maximumImagePixels)), &width, &height, &status)
                }
            }
        }
        guard let opened else {
            switch status {
            case QUIRE_AVIF_TOO_LARGE: throw limits.pixelRefusal(Int(width), Int(height), path: path)
            case QUIRE_AVIF_NO_MEMORY, QUIRE_AVIF_NO_DECODER:
                throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to read the AVIF image sequence")
            default: throw DocumentError(kind: .damaged, path: path, reason: "not a readable AVIF image sequence (damaged or cut short)")
            }
        }
        sequence = opened
        self.width = Int(width)
        self.height = Int(height)
        self.path = path
        // The durations of the first frames played at most (more are refused by their count).
        let counted = min(Int(opened.pointee.frames), AnimationFrames.maximumFrames + 1)
        delays = (0..<counted).map { index in
            Int((AnimationInfo.delay(Double(quire_avif_sequence_duration(opened, UInt32(index))) / 1000) * 1000).rounded())
        }
    }

    convenience init(file: InputFile, limits: RenderLimits) throws(DocumentError) {
        let bytes: [UInt8]
        do throws(InputError) { bytes = try file.read(upTo: Int(file.size)) } catch { throw DocumentError(error) }
        try self.init(bytes: bytes, path: file.path, limits: limits)
    }

    deinit { quire_avif_sequence_close(sequence) }

    /// Frames in the sequence.
    var frameCount: Int { Int(sequence.pointee.frames) }

    /// The animation's facts: frames, one play's length, loops (libavif 0.11 reads no repetition
    /// count: an AVIF sequence plays forever, as browsers play it); nil for a single frame.
    var animation: AnimationInfo? {
        guard frameCount > 1 else { return nil }
        return AnimationInfo(frames: frameCount, duration: Double(delays.reduce(0, +)) / 1000, loops: 0, isCut: false)
    }

    /// Frame `number` decoded whole, as a cairo surface (the first frame is the still page).
    func image(_ number: Int) throws(DocumentError) -> CairoImage {
        try decode(number)
        return try CairoImage(copyingRGBA: sequence.pointee.pixels!, width: width, height: height, path: path)
    }

    func frame(_ number: Int, width boxWidth: Int, height boxHeight: Int) throws(DocumentError) -> (image: RenderedImage, delay: Int) {
        try decode(number)
        let canvas = [UInt8](UnsafeBufferPointer(start: sequence.pointee.pixels, count: width * height * 4))
        let image = APNGFrames.fitted(RenderedImage(width: width, height: height, pixels: canvas), boxWidth, boxHeight)
        return (image, delays[min(number, delays.count - 1)])
    }

    private func decode(_ number: Int) throws(DocumentError) {
        guard number >= 0, number < frameCount else {
            throw DocumentError(kind: .unsupported, path: path, reason: "the animation has no frame \(number + 1) (it has \(frameCount))")
        }
        let status = StandardOutputDiversion.run { quire_avif_sequence_frame(sequence, UInt32(number)) }
        switch status {
        case QUIRE_AVIF_OK: return
        case QUIRE_AVIF_NO_MEMORY: throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to decode the AVIF animation")
        default: throw DocumentError(kind: .damaged, path: path, reason: "frame \(number + 1) of the AVIF animation cannot be decoded")
        }
    }
}
