internal import CCairo
import QuireTypes

/// A video as pages: page 1 is the poster frame — the first of a few moments (a third of the
/// way in, then others) that is not black, blank or a fade, as GNOME's video thumbnailer
/// chooses — and pages 2–9 are frames at ninths of the duration, the strip the terminal viewer
/// and the window page through. Frames are decoded when a page is asked for (a few are kept).
final class VideoSource: PageSource {
    let path: DocumentPath
    let info: MediaInfo
    private let frames: VideoFrames
    private let poster: CairoImage
    private var decoded: [Int: CairoImage] = [:]

    /// Frames across the duration after the poster.
    static let stripFrames = 8
    /// Where the poster is looked for, as fractions of the duration, in order.
    static let posterCandidates = [1.0 / 3, 0.1, 0.5, 2.0 / 3, 0.9, 0.02]

    var pageCount: Int { info.duration == nil ? 1 : 1 + Self.stripFrames }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    init(file: InputFile, info: MediaInfo, limits: RenderLimits) throws(DocumentError) {
        path = file.path
        self.info = info
        if let width = info.width, let height = info.height, width * height > limits.maximumImagePixels {
            throw DocumentError(kind: .limitExceeded, path: file.path,
                                reason: "the video is \(width)×\(height) pixels, more than the limit of \(limits.maximumImagePixels)")
        }
        frames = try VideoFrames(file: file, limits: limits)
        var best: (score: Double, image: CairoImage)?
        let positions = info.duration.map { duration in Self.posterCandidates.map { $0 * duration } } ?? [0]
        for position in positions {
            guard let image = try frames.frame(at: position) else { continue }
            let score = Self.interest(of: image)
            if best == nil || score > best!.score { best = (score, image) }
            if score >= Self.interesting { break }
        }
        guard let best else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "no frame of the video could be decoded")
        }
        poster = best.image
    }

    /// A frame at least this interesting is taken at once.
    static let interesting = 1.0

    /// How much a frame shows: 0 for black, blank or nearly uniform frames (fades), growing with
    /// the spread of its brightness (sampled on a grid of at most 64×64 points).
    static func interest(of image: CairoImage) -> Double {
        let pixels = image.rendered()
        let stepX = max(1, pixels.width / 64), stepY = max(1, pixels.height / 64)
        var sum = 0.0, squares = 0.0, count = 0.0
        for y in stride(from: 0, to: pixels.height, by: stepY) {
            for x in stride(from: 0, to: pixels.width, by: stepX) {
                let p = pixels.pixel(x: x, y: y)
                let luma = 0.299 * Double(p.red) + 0.587 * Double(p.green) + 0.114 * Double(p.blue)
                sum += luma; squares += luma * luma; count += 1
            }
        }
        guard count > 0 else { return 0 }
        let mean = sum / count
        let deviation = (max(0, squares / count - mean * mean)).squareRoot()
        guard mean > 16, mean < 240, deviation > 12 else { return deviation / 100 }
        return 1 + deviation / 100
    }

    func pageSize(at index: Int) -> PageSize { PageSize(width: Double(poster.width), height: Double(poster.height)) }

    private func image(page index: Int) throws(DocumentError) -> CairoImage {
        guard index > 0, let duration = info.duration else { return poster }
        if let image = decoded[index] { return image }
        let at = duration * Double(index) / Double(Self.stripFrames + 1)
        guard let image = try frames.frame(at: at) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the frame at \(Int(at)) s cannot be decoded")
        }
        if decoded.count >= 3 { decoded.removeAll() }
        decoded[index] = image
        return image
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        let frame = try image(page: index)
        libcairo.cairo_save(cr)
        libcairo.cairo_set_source_surface(cr, frame.surface, 0, 0)
        libcairo.cairo_paint(cr)
        libcairo.cairo_restore(cr)
    }
}

extension RenderEngine {
    /// Video and audio through GStreamer: a video's frames; an audio file's cover picture, or a
    /// card of its tags when it has none.
    static let media = RenderEngine(name: "media", families: [.video, .audio]) { (input) throws(DocumentError) in
        let info = try MediaInfo.read(input.file)
        var opened: Opened
        if info.hasVideo {
            opened = Opened(source: try VideoSource(file: input.file, info: info, limits: input.limits))
        } else if let cover = info.cover,
                  let source = try? ImageSource(decoder: ImageDecoder(source: .bytes(cover, name: "cover"), path: input.file.path,
                                                                      limits: input.limits),
                                                header: Array(cover.prefix(256 * 1024))) {
            opened = Opened(source: source, embeddedPreviewName: "cover")
        } else {
            let waveform = info.duration.map { duration in
                AudioPeaks.waveform(input.file, duration: duration, buckets: AudioCardSource.waveformSlices, budget: AudioCardSource.waveformBudget)
            }
            opened = Opened(source: try AudioCardSource(path: input.file.path, info: info, waveform: waveform))
        }
        opened.details = info.details
        opened.title = info.title
        opened.author = info.artist
        return opened
    }
}
