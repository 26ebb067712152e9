internal import CJXL
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// An animated JPEG XL image's frames, decoded by libjxl one after another (each displayed
/// frame composited onto the canvas, upright), for a viewer that plays it. Owns libjxl's
/// decoder and its copy of the file; a frame asked for before the last one decoded starts the
/// decoder again from the first. Its size and frame count were checked against the pixel limit
/// before (``AnimationFrames/refusal(_:width:height:mimeType:limits:)``).
final class JPEGXLAnimation: FrameSequence {
    private let frames: UnsafeMutablePointer<quire_jxl_frames>
    private let delays: [Int]
    private let path: DocumentPath

    init(file: InputFile, width: Int, height: Int) throws(DocumentError) {
        let api = try LazyLibraries.jxl(file.path)
        let bytes: [UInt8]
        do throws(InputError) { bytes = try file.read(upTo: Int(file.size)) } catch { throw DocumentError(error) }
        guard let (_, delays) = JPEGXLImage.animation(bytes, api: api), !delays.isEmpty else {
            throw DocumentError(kind: .unsupported, path: file.path, reason: "this JPEG XL image is not an animation")
        }
        let opened = withUnsafePointer(to: api) { api in
            bytes.withUnsafeBufferPointer { buffer in
                quire_jxl_frames_open(api, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count, UInt32(width), UInt32(height))
            }
        }
        guard let opened else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "not enough memory to decode the JPEG XL animation")
        }
        frames = opened
        self.delays = delays
        path = file.path
    }

    deinit { quire_jxl_frames_close(frames) }

    func frame(_ number: Int, width: Int, height: Int) throws(DocumentError) -> (image: RenderedImage, delay: Int) {
        guard number >= 0, number < delays.count else {
            throw DocumentError(kind: .unsupported, path: path, reason: "the animation has no frame \(number + 1) (it has \(delays.count))")
        }
        if Int(frames.pointee.decoded) > number + 1 || (Int(frames.pointee.decoded) == 0 && frames.pointee.decoder == nil) {
            guard quire_jxl_frames_restart(frames) != 0 else {
                throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to decode the JPEG XL animation")
            }
        }
        while Int(frames.pointee.decoded) <= number {
            let status = StandardOutputDiversion.run { quire_jxl_frames_next(frames) }
            guard status == QUIRE_JXL_OK else {
                // Started again next time: the decoder stopped in the middle of a frame.
                _ = quire_jxl_frames_restart(frames)
                throw DocumentError(kind: .damaged, path: path, reason: "frame \(number + 1) of the JPEG XL animation cannot be decoded")
            }
        }
        let (canvasWidth, canvasHeight) = (Int(frames.pointee.width), Int(frames.pointee.height))
        let canvas = [UInt8](UnsafeBufferPointer(start: frames.pointee.pixels, count: canvasWidth * canvasHeight * 4))
        let image = APNGFrames.fitted(RenderedImage(width: canvasWidth, height: canvasHeight, pixels: canvas), width, height)
        return (image, delays[number])
    }
}
