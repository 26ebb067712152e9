internal import CCairo
import QuireTypes

/// A video as pages: page 1 is the poster frame — the first of a few moments (a third of the
/// way in, then others) that is not black, blank or a fade, as GNOME's video thumbnailer
/// chooses; the key frame at each moment is tried before the exact frame, which may need many
/// frames decoded — and pages 2–9 are frames at ninths of the duration, the strip the terminal
/// viewer and the window page through. Frames are decoded when a page is asked for (a few are
/// kept).
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

    convenience init(file: InputFile, info: MediaInfo, limits: RenderLimits) throws(DocumentError) {
        if let width = info.width, let height = info.height, width * height > limits.maximumImagePixels {
            throw DocumentError(kind: .limitExceeded, path: file.path,
                                reason: "the video is \(width)×\(height) pixels, more than the limit of \(limits.maximumImagePixels)")
        }
        try self.init(file: file, info: info, frames: VideoFrames(file: file, limits: limits))
    }

    /// For a thumbnail: the frames' own pipeline gives the duration, and GStreamer's discoverer
    /// (a second pipeline, for the card's facts) is not run. The frames still refuse a size over
    /// the pixel limit.
    static func thumbnail(of file: InputFile, limits: RenderLimits) throws(DocumentError) -> VideoSource {
        let frames = try VideoFrames(file: file, limits: limits)
        var info = MediaInfo()
        info.duration = frames.duration
        return try VideoSource(file: file, info: info, frames: frames)
    }

    private init(file: InputFile, info: MediaInfo, frames: VideoFrames) throws(DocumentError) {
        path = file.path
        self.info = info
        self.frames = frames
        var best: (score: Double, image: CairoImage)?
        let positions = info.duration.map { duration in Self.posterCandidates.map { $0 * duration } } ?? [0]
        // At each moment, the key frame there first (one frame decoded, no more), then — when
        // that is not interesting — the frame exactly there (decoded from the key frame before:
        // a clip whose only key frame is its black opening).
        search: for position in positions {
            for accurate in [false, true] {
                guard let image = try frames.frame(at: position, accurate: accurate) else { continue }
                let score = Self.interest(of: image)
                if best == nil || score > best!.score { best = (score, image) }
                if score >= Self.interesting { break search }
            }
        }
        guard let best else {
            if frames.stalled {
                throw DocumentError(kind: .limitExceeded, path: file.path,
                                    reason: "no frame was decoded within the \(VideoFrames.prerollTimeout) s time limit")
            }
            throw DocumentError(kind: .damaged, path: file.path, reason: "no frame of the video could be decoded")
        }
        poster = best.image
    }

    /// A frame at least this interesting is taken at once.
    static let interesting = 1.0

    /// How much a frame shows: below 1 for black, blank or nearly uniform frames (fades), growing
    /// with the spread of its brightness (sampled on a grid of at most 64×64 points). The spread
    /// alone decides, as in GNOME's thumbnailer: a dark frame with something bright in it (a
    /// ball on black, titles) is interesting, however dark it is on average.
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
        guard deviation > 12 else { return deviation / 100 }
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
        // quire's one-shot commands: GStreamer decodes in a sandboxed worker (InterpreterIsolation).
        if let pages = try input.interpreters.host?.pages(input.file, tool: "GStreamer", firstPageOnly: false) {
            return InterpreterIsolation.opened(pages, path: input.file.path)
        }
        // A video's thumbnail from one pipeline; a file that is not one (a Matroska file holding
        // only sound) or that fails there is opened the whole way, which says why. One that ran
        // out of time there is not tried again: a second pipeline would wait as long.
        if input.preferEmbeddedPreview, input.contentType.family == .video {
            do throws(DocumentError) {
                return Opened(source: try VideoSource.thumbnail(of: input.file, limits: input.limits))
            } catch where error.kind == .limitExceeded {
                throw error
            } catch {}
        }
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
