internal import CGdkPixbuf
import QuireGIO
import QuireTypes

/// An animated PNG's frames, composed as the APNG specification says: each frame control
/// (`fcTL`) places a frame of its own size at an offset on the canvas, blends it (source: the
/// frame's pixels replace the region; over: drawn over it with their alpha) and, before the next
/// frame, disposes of it (none; background: the region cleared to transparent; previous: the
/// region as it was before). gdk-pixbuf decodes only the default image, so each frame's pixels
/// are decoded from a PNG made of the frame's own data: the file's header with the frame's size,
/// the file's palette and colour chunks, the frame's `IDAT`/`fdAT` data as `IDAT`.
///
/// Frames are composed in order (a player's way): each costs one frame's decoding; asked
/// backwards, composition starts again from the first frame. Runs in the render worker only.
final class APNGFrames: FrameSequence {
    /// One frame's control and where its compressed data lies in the file.
    struct Frame {
        var width = 0, height = 0, x = 0, y = 0
        /// Milliseconds (under 20 ms counts as 100 ms, as ``AnimationInfo`` counts it).
        var delay = 100
        var dispose: UInt8 = 0
        var blend: UInt8 = 0
        /// Ranges of zlib data in the file (an `fdAT`'s without its sequence number).
        var data: [Range<Int>] = []
    }

    let width: Int
    let height: Int
    let frames: [Frame]
    private let bytes: [UInt8]
    /// IHDR's data after width and height: bit depth, colour type, compression, filter, interlace.
    private let headerTail: [UInt8]
    /// Chunks every frame's PNG carries before its data (PLTE, tRNS, gAMA, cHRM, sRGB, iCCP, sBIT), whole.
    private let shared: [ArraySlice<UInt8>]
    private let path: DocumentPath
    private let api: quire_gdkpixbuf_api

    /// The canvas (straight-alpha RGBA) after frame ``composed`` − 1; the region to restore when
    /// that frame's dispose asks for the previous contents.
    private var canvas: [UInt8]
    private var composed = 0
    private var saved: [UInt8]?

    /// Reads the chunks of `file` (at most ``AnimationInfo/maximumBytes``). Throws when it is not
    /// an animated PNG whose frames lie within its canvas.
    init(file: InputFile, api: quire_gdkpixbuf_api) throws(DocumentError) {
        path = file.path
        self.api = api
        let bytes: [UInt8]
        do { bytes = try file.read(upTo: AnimationInfo.maximumBytes) } catch { throw DocumentError(error) }
        self.bytes = bytes
        func damaged(_ why: String) -> DocumentError {
            DocumentError(kind: .damaged, path: file.path, reason: "the animated PNG cannot be decoded (\(why))")
        }
        func uint32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        func uint16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        guard bytes.starts(with: PNGChunks.signature), bytes.count >= 33, bytes[12..<16].elementsEqual("IHDR".utf8) else {
            throw damaged("no PNG header")
        }
        width = uint32(16)
        height = uint32(20)
        headerTail = Array(bytes[24..<29])
        var shared: [ArraySlice<UInt8>] = []
        var frames: [Frame] = []
        var current: Frame?
        var seenData = false
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = uint32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = offset + 8
            guard length <= bytes.count - data - 4 else { break }   // cut short: the frames so far
            switch type {
            case "PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT":
                if !seenData { shared.append(bytes[offset..<(data + length + 4)]) }
            case "fcTL" where length >= 26:
                if let current { frames.append(current) }
                var frame = Frame(width: uint32(data + 4), height: uint32(data + 8), x: uint32(data + 12), y: uint32(data + 16))
                let denominator = uint16(data + 22)
                let seconds = Double(uint16(data + 20)) / Double(denominator == 0 ? 100 : denominator)
                frame.delay = Int((AnimationInfo.delay(seconds) * 1000).rounded())
                frame.dispose = bytes[data + 24]
                frame.blend = bytes[data + 25]
                guard frame.width > 0, frame.height > 0, frame.width <= width, frame.height <= height,
                      frame.x <= width - frame.width, frame.y <= height - frame.height else {
                    throw damaged("frame \(frames.count + 1) lies outside the canvas")
                }
                current = frame
            case "IDAT":
                seenData = true
                // The default image is the first frame only when a frame control comes before it.
                if current != nil && frames.isEmpty { current?.data.append(data..<(data + length)) }
            case "fdAT" where length > 4:
                current?.data.append((data + 4)..<(data + length))
            case "IEND":
                offset = bytes.count
                continue
            default:
                break
            }
            offset = data + length + 4
        }
        if let current { frames.append(current) }
        frames.removeAll { $0.data.isEmpty }
        guard frames.count > 1 else { throw damaged("it has fewer than two frames") }
        if frames[0].dispose == 2 { frames[0].dispose = 1 }   // "previous" on the first frame: as background
        self.frames = frames
        self.shared = shared
        canvas = []
    }

    /// Frame `number` composed, fitted into `width` × `height` (the aspect kept), as straight-alpha
    /// RGBA, and its delay in milliseconds.
    func frame(_ number: Int, width boxWidth: Int, height boxHeight: Int) throws(DocumentError) -> (image: RenderedImage, delay: Int) {
        guard number >= 0, number < frames.count else {
            throw DocumentError(kind: .unsupported, path: path, reason: "the animation has no frame \(number + 1) (it has \(frames.count))")
        }
        if number < composed - 1 || canvas.isEmpty {
            canvas = [UInt8](repeating: 0, count: width * height * 4)
            composed = 0
            saved = nil
        }
        while composed <= number { try compose(composed) }
        let image = Self.fitted(RenderedImage(width: width, height: height, pixels: canvas), boxWidth, boxHeight)
        return (image, frames[number].delay)
    }

    /// Disposes of the frame before `index`, then draws frame `index` on the canvas.
    private func compose(_ index: Int) throws(DocumentError) {
        let frame = frames[index]
        if index > 0 {
            let before = frames[index - 1]
            switch before.dispose {
            case 1: fill(before, with: nil)
            case 2: if let saved { fill(before, with: saved) }
            default: break
            }
        }
        saved = frame.dispose == 2 ? region(frame) : nil
        let pixels = try decode(frame, number: index + 1)
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                let source = (row * frame.width + column) * 4
                let target = ((frame.y + row) * width + frame.x + column) * 4
                let alpha = Int(pixels[source + 3])
                if frame.blend == 0 || alpha == 255 {
                    for channel in 0..<4 { canvas[target + channel] = pixels[source + channel] }
                } else if alpha > 0 {
                    // Straight alpha "over": out = src·a + dst·da·(1 − a), divided by the new alpha.
                    let below = Int(canvas[target + 3]) * (255 - alpha) / 255
                    let outAlpha = alpha + below
                    for channel in 0..<3 {
                        let mixed = Int(pixels[source + channel]) * alpha + Int(canvas[target + channel]) * below
                        canvas[target + channel] = UInt8((mixed + outAlpha / 2) / outAlpha)
                    }
                    canvas[target + 3] = UInt8(outAlpha)
                }
            }
        }
        composed = index + 1
    }

    /// The canvas's pixels under `frame`, row by row.
    private func region(_ frame: Frame) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(frame.width * frame.height * 4)
        for row in 0..<frame.height {
            let start = ((frame.y + row) * width + frame.x) * 4
            out += canvas[start..<(start + frame.width * 4)]
        }
        return out
    }

    /// The canvas under `frame` set to `pixels` (as ``region(_:)`` gives them), or cleared.
    private func fill(_ frame: Frame, with pixels: [UInt8]?) {
        for row in 0..<frame.height {
            let start = ((frame.y + row) * width + frame.x) * 4
            for index in 0..<(frame.width * 4) {
                canvas[start + index] = pixels?[row * frame.width * 4 + index] ?? 0
            }
        }
    }

    /// The frame's own pixels (straight-alpha RGBA, its width × height), decoded by gdk-pixbuf
    /// from a PNG of the frame's chunks.
    private func decode(_ frame: Frame, number: Int) throws(DocumentError) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        var png = PNGChunks.signature
        png += PNGChunks.chunk("IHDR", be32(frame.width) + be32(frame.height) + headerTail)
        for chunk in shared { png += chunk }
        for range in frame.data { png += PNGChunks.chunk("IDAT", Array(bytes[range])) }
        png += PNGChunks.chunk("IEND", [])
        let failed = DocumentError(kind: .damaged, path: path, reason: "frame \(number) of the animated PNG cannot be decoded")
        guard let loader = api.gdk_pixbuf_loader_new() else { throw failed }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var gerror: UnsafeMutablePointer<GError>?
        let written = png.withUnsafeBufferPointer { api.gdk_pixbuf_loader_write(loader, $0.baseAddress!, gsize($0.count), &gerror) != 0 }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = written ? api.gdk_pixbuf_loader_close(loader, &closeError) != 0 : api.gdk_pixbuf_loader_close(loader, nil) != 0
        if let error = GLibError.take(gerror) ?? GLibError.take(closeError) {
            throw DocumentError(kind: .damaged, path: path, reason: "frame \(number) of the animated PNG cannot be decoded (\(error.message))",
                                underlying: error)
        }
        guard written, closed, let pixbuf = api.gdk_pixbuf_loader_get_pixbuf(loader),
              Int(api.gdk_pixbuf_get_width(pixbuf)) == frame.width, Int(api.gdk_pixbuf_get_height(pixbuf)) == frame.height else {
            throw failed
        }
        return try AnimationFrames.rgba(pixbuf, fitting: frame.width, frame.height, api: api, path: path).pixels
    }

    /// `image` fitted into `width` × `height` (the aspect kept, enlarged when the box is larger),
    /// each output pixel the bilinear mix of the four nearest (alpha-weighted, so transparent
    /// pixels lend no colour).
    static func fitted(_ image: RenderedImage, _ width: Int, _ height: Int) -> RenderedImage {
        let scale = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let targetWidth = max(1, min(width, Int((Double(image.width) * scale).rounded())))
        let targetHeight = max(1, min(height, Int((Double(image.height) * scale).rounded())))
        if targetWidth == image.width && targetHeight == image.height { return image }
        let source = image.pixels
        let pixels = [UInt8](unsafeUninitializedCapacity: targetWidth * targetHeight * 4) { buffer, count in
            for y in 0..<targetHeight {
                let sy = min(Double(image.height - 1), max(0, (Double(y) + 0.5) * Double(image.height) / Double(targetHeight) - 0.5))
                let y0 = Int(sy), y1 = min(image.height - 1, y0 + 1), fy = sy - Double(y0)
                for x in 0..<targetWidth {
                    let sx = min(Double(image.width - 1), max(0, (Double(x) + 0.5) * Double(image.width) / Double(targetWidth) - 0.5))
                    let x0 = Int(sx), x1 = min(image.width - 1, x0 + 1), fx = sx - Double(x0)
                    let corners = [(x0, y0, (1 - fx) * (1 - fy)), (x1, y0, fx * (1 - fy)), (x0, y1, (1 - fx) * fy), (x1, y1, fx * fy)]
                    var alpha = 0.0, red = 0.0, green = 0.0, blue = 0.0
                    for (cx, cy, weight) in corners {
                        let p = (cy * image.width + cx) * 4
                        let a = Double(source[p + 3]) * weight
                        alpha += a
                        red += Double(source[p]) * a
                        green += Double(source[p + 1]) * a
                        blue += Double(source[p + 2]) * a
                    }
                    let out = (y * targetWidth + x) * 4
                    buffer[out] = alpha > 0 ? UInt8(min(255, (red / alpha).rounded())) : 0
                    buffer[out + 1] = alpha > 0 ? UInt8(min(255, (green / alpha).rounded())) : 0
                    buffer[out + 2] = alpha > 0 ? UInt8(min(255, (blue / alpha).rounded())) : 0
                    buffer[out + 3] = UInt8(min(255, alpha.rounded()))
                }
            }
            count = targetWidth * targetHeight * 4
        }
        return RenderedImage(width: targetWidth, height: targetHeight, pixels: pixels)
    }
}
