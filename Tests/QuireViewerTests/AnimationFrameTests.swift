import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import QuireViewer
import Testing

/// An animation's frames from the render service (the `frame` request, answered by a real
/// worker process): each frame's pixels and its delay as the file says (Pillow wrote them,
/// Samples/animations.py), through the client and through the viewers' render queue; an
/// animation with too many frames refused in one line, quickly, its first frame still shown.
@Suite("Animation frames")
struct AnimationFrameTests {
    static func client() -> RenderClient { RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 30) }

    /// The colour at the middle of an image.
    static func middle(_ image: RenderedImage) -> RenderedImage.Pixel { image.pixel(x: image.width / 2, y: image.height / 2) }

    /// Frames 0…N of the GIF (3 of 100 ms: red, green, blue, looping), the WebP (5 of 200 ms:
    /// red, green, blue, yellow, cyan), the APNG (4 of 50 ms), the JPEG XL (the GIF's) and the
    /// AVIF sequence (3 of 100 ms): each frame's colour, each unlike
    /// the one before, each delay the file's; asked again from the start (the worker goes back).
    @Test(arguments: [("animations/animated.gif", 100, [(255, 0, 0), (0, 255, 0), (0, 0, 255)]),
                      ("animations/animated.webp", 200, [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255)]),
                      ("animations/animated.png", 50, [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]),
                      // The GIF made JPEG XL by cjxl: decoded by libjxl, frame by frame.
                      ("animations/animated.jxl", 100, [(255, 0, 0), (0, 255, 0), (0, 0, 255)]),
                      // An AVIF image sequence (lossy AV1: the colours within a few levels).
                      ("animations/animated.avif", 100, [(255, 0, 0), (0, 255, 0), (0, 0, 255)])])
    func everyFrameComesWithItsDelay(sample: String, delay: Int, colours: [(Int, Int, Int)]) throws {
        let client = Self.client()
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(Samples.path(sample)))
        let facts = try client.open(document)
        let animation = try #require(facts.animation, "the facts say it is animated")
        #expect(animation.frames == colours.count && facts.animationRefusal == nil)
        var previous: RenderedImage?
        for (number, colour) in colours.enumerated() {
            let (image, frameDelay) = try client.renderFrame(PageRequest(document: document, page: number, width: 120, height: 80))
            #expect(image.width == 120 && image.height == 80, "60×40 fitted into 120×80")
            let pixel = Self.middle(image)
            let tolerance = sample.hasSuffix(".avif") ? 8 : 0
            #expect(abs(Int(pixel.red) - colour.0) <= tolerance && abs(Int(pixel.green) - colour.1) <= tolerance
                    && abs(Int(pixel.blue) - colour.2) <= tolerance, "frame \(number + 1) of \(sample): \(pixel)")
            #expect(frameDelay == delay, "frame \(number + 1)'s delay is the file's")
            if let previous { #expect(previous.pixels != image.pixels, "frame \(number + 1) differs from the one before") }
            previous = image
        }
        // Back to the first frame, then the last again: the same pixels as before.
        let first = try client.renderFrame(PageRequest(document: document, page: 0, width: 60, height: 40)).image
        #expect(Self.middle(first).red >= 247 && Self.middle(first).green <= 8)
        let last = try client.renderFrame(PageRequest(document: document, page: colours.count - 1, width: 60, height: 40)).image
        let colour = colours[colours.count - 1]
        #expect(abs(Int(Self.middle(last).red) - colour.0) <= 8 && abs(Int(Self.middle(last).green) - colour.1) <= 8
                && abs(Int(Self.middle(last).blue) - colour.2) <= 8)
        // Past the last frame: one line, not a crash.
        #expect(throws: RenderProblem.self) {
            try client.renderFrame(PageRequest(document: document, page: colours.count, width: 60, height: 40))
        }
    }

    /// The 640×480 bar crossing (48 frames of 40 ms): consecutive frames differ in pixels, and
    /// the frames come through the viewers' render queue as the window asks for them.
    @Test func framesComeThroughTheRenderQueue() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("animations/moving.gif"))], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        model.waitUntilOpened()
        let animation = try #require(model.playableAnimation)
        #expect(animation.frames == 48 && abs(animation.duration - 1.92) < 0.001 && animation.loops == 0)
        #expect(model.animationSummary == "animated, 48 frames, 1.9 s")
        let jobs = try (0..<6).map { try #require(model.frameJob($0, fitting: (width: 320, height: 240))) }
        #expect(jobs.allSatisfy { $0.width == 320 && $0.height == 240 && $0.purpose == .animation })
        model.want(jobs, for: .animation)
        var frames: [Int: AnimationFrame] = [:]
        let deadline = Date().addingTimeInterval(30)
        while frames.count < jobs.count && Date() < deadline {
            for update in model.update() {
                if case .frame(let job, let result) = update, let number = job.frame { frames[number] = try result.get() }
            }
            usleep(2_000)
        }
        #expect(frames.count == jobs.count)
        for number in 1..<jobs.count {
            let before = try #require(frames[number - 1]), now = try #require(frames[number])
            #expect(now.delay == 40)
            let a = UnsafeRawBufferPointer(start: before.pixels.base, count: before.pixels.byteCount)
            let b = UnsafeRawBufferPointer(start: now.pixels.base, count: now.pixels.byteCount)
            #expect(!a.elementsEqual(b), "frame \(number + 1) differs from frame \(number)")
        }
    }

    /// Hostile and damaged AVIF sequences: 20,000 frames (one frame's bytes listed over and over)
    /// are refused to play by their count in one line, the first frame still drawn; a file cut
    /// inside its frames' data is refused in one line when opened, by the viewer's worker and by
    /// `info` (no loader's warning beside it).
    @Test func aHostileOrCutAVIFSequenceIsOneLine() throws {
        let client = Self.client()
        defer { client.stop() }
        let many = DocumentRequest(path: DocumentPath(Samples.path("animations/many-frames.avif")))
        let facts = try client.open(many)
        #expect(facts.animation?.frames == 20_000)
        let refusal = try #require(facts.animationRefusal)
        #expect(refusal == "too many frames to play (20000, more than 10000)", "\(refusal)")
        #expect(throws: RenderProblem.self) { try client.renderFrame(PageRequest(document: many, page: 1, width: 60, height: 40)) }
        let first = try client.renderPage(PageRequest(document: many, page: 0, width: 60, height: 40))
        #expect(Self.middle(first).red > 240 && Self.middle(first).green < 16, "the first frame: red")
        do {
            _ = try client.open(DocumentRequest(path: DocumentPath(Samples.path("animations/truncated.avif"))))
            Issue.record("a cut AVIF sequence was opened")
        } catch {
            #expect(error.message.contains("not a readable AVIF image sequence") && !error.message.contains("\n"), "\(error.message)")
        }
        let info = QuireBinary.run(["info", Samples.path("animations/truncated.avif")])
        #expect(info.status != 0 && info.errorLines.count == 1, "\(info.standardError)")
    }

    /// 10,000 full-size frames of a 1000×1000 canvas: refused to play in one line when opened
    /// (no frame decoded), the frame request refused at once, the first frame still drawn.
    @Test func tooManyFramesIsOneLineAndTheFirstFrameIsShown() throws {
        let client = Self.client()
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(Samples.path("animations/many-frames.gif")))
        let started = Date()
        let facts = try client.open(document)
        #expect(facts.animation?.frames == 10_000)
        let refusal = try #require(facts.animationRefusal)
        #expect(refusal == "too many frames to play (10000 of 1000×1000 px, over the 100-megapixel limit)" && !refusal.contains("\n"), "\(refusal)")
        do {
            _ = try client.renderFrame(PageRequest(document: document, page: 5000, width: 200, height: 200))
            Issue.record("a refused animation's frame was drawn")
        } catch {
            #expect(error.message.contains("too many frames to play"), "\(error.message)")
        }
        let first = try client.renderPage(PageRequest(document: document, page: 0, width: 200, height: 200))
        #expect(first.width == 200 && Self.middle(first).red == 255 && Self.middle(first).blue == 0, "the first frame: red")
        #expect(Date().timeIntervalSince(started) < 20, "bounded: \(Date().timeIntervalSince(started)) s")
        // The viewers say why it does not play, and offer no play keys for it.
        let model = ViewerModel(paths: [document.path], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        model.waitUntilOpened()
        #expect(model.animationRefusal == refusal && model.playableAnimation == nil)
        #expect(model.frameJob(1, fitting: (width: 100, height: 100)) == nil && !model.commandContext.isAnimated)
    }

    /// An animated PNG's later frames cover part of the canvas at an offset (partial.png): each
    /// is drawn where its frame control puts it, over what the frames before left; a frame drawn
    /// over with its alpha and disposed of as "previous" (disposal.png) mixes with the red below
    /// and is gone from the frame after it.
    @Test func anAnimatedPNGsFramesAreComposedOnItsCanvas() throws {
        let client = Self.client()
        defer { client.stop() }
        func frames(_ sample: String) throws -> [RenderedImage] {
            let document = DocumentRequest(path: DocumentPath(Samples.path(sample)))
            let facts = try client.open(document)
            #expect(facts.animation?.frames == 3 && facts.animationRefusal == nil, "\(sample): \(facts.animationRefusal ?? "")")
            return try (0..<3).map { try client.renderFrame(PageRequest(document: document, page: $0, width: 60, height: 40)).image }
        }
        func rgb(_ image: RenderedImage, _ x: Int, _ y: Int) -> [Int] {
            let pixel = image.pixel(x: x, y: y)
            return [Int(pixel.red), Int(pixel.green), Int(pixel.blue)]
        }
        for sample in ["animations/partial.png"] {
            let partial = try frames(sample)
            #expect(partial.allSatisfy { $0.width == 60 && $0.height == 40 })
            #expect(rgb(partial[0], 15, 15) == [255, 0, 0] && rgb(partial[0], 45, 25) == [255, 0, 0], "\(sample)")
            #expect(rgb(partial[1], 15, 15) == [0, 255, 0] && rgb(partial[1], 45, 25) == [255, 0, 0] && rgb(partial[1], 5, 5) == [255, 0, 0], "\(sample)")
            #expect(rgb(partial[2], 15, 15) == [0, 255, 0], "the green square stays (dispose none): \(sample)")
            #expect(rgb(partial[2], 45, 25) == [0, 0, 255] && rgb(partial[2], 55, 35) == [255, 0, 0], "\(sample)")
        }

        let disposal = try frames("animations/disposal.png")
        let mixed = rgb(disposal[1], 15, 15)
        #expect(abs(mixed[0] - 127) <= 2 && abs(mixed[1] - 128) <= 2 && mixed[2] == 0, "half green over red: \(mixed)")
        #expect(disposal[1].pixel(x: 15, y: 15).alpha == 255)
        #expect(rgb(disposal[2], 15, 15) == [255, 0, 0], "disposed of as previous: red again")
        #expect(rgb(disposal[2], 45, 25) == [0, 0, 255])
        // Back to the second frame: composed again from the first.
        let again = try client.renderFrame(PageRequest(document: DocumentRequest(path: DocumentPath(Samples.path("animations/disposal.png"))),
                                                       page: 1, width: 60, height: 40)).image
        #expect(again.pixels == disposal[1].pixels)
    }

    /// Damaged animated PNGs through the worker: a file cut inside its last frame's data is
    /// refused in one line (truncated, as a still PNG is); a frame control that puts its frame
    /// outside the canvas is refused in one line, naming the frame. Never a crash: the same
    /// worker answers the next request.
    @Test func aDamagedAnimatedPNGIsRefusedInOneLine() throws {
        let client = Self.client()
        defer { client.stop() }
        let directory = TemporaryDirectory("quire-apng")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("animations/partial.png"))))
        // The chunks' offsets, to cut and to alter the file where its structure is.
        var chunks: [(type: String, offset: Int, length: Int)] = []
        var offset = 8
        while offset + 12 <= original.count {
            let length = original[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            chunks.append((String(decoding: original[(offset + 4)..<(offset + 8)], as: UTF8.self), offset, length))
            offset += length + 12
        }
        let frameData = chunks.filter { $0.type == "fdAT" }
        let controls = chunks.filter { $0.type == "fcTL" }
        try #require(frameData.count == 2 && controls.count == 3, "partial.png: \(chunks.map(\.type))")

        // Cut in the middle of the last frame's data.
        let last = try #require(frameData.last)
        let cut = directory.url.appendingPathComponent("cut.png")
        try Data(original[..<(last.offset + 8 + last.length / 2)]).write(to: cut)
        let cutDocument = DocumentRequest(path: DocumentPath(cut.path))
        let cutProblem = try #require(throws: RenderProblem.self, "the cut file is refused") { try client.open(cutDocument) }
        #expect(cutProblem.kind == .damaged && !cutProblem.message.contains("\n"), "\(cutProblem)")
        #expect(cutProblem.message.contains("truncated"), "\(cutProblem.message)")

        // The second frame control's x offset (at 12 in its data) beyond the 60-pixel canvas.
        var outside = original
        let control = controls[1]
        outside.replaceSubrange((control.offset + 8 + 12)..<(control.offset + 8 + 16), with: [0, 0, 0x0F, 0xFF])
        let outsideURL = directory.url.appendingPathComponent("outside.png")
        try Data(outside).write(to: outsideURL)
        let outsideDocument = DocumentRequest(path: DocumentPath(outsideURL.path))
        let outsideProblem = try #require(throws: RenderProblem.self, "a frame outside the canvas is refused") {
            try client.renderFrame(PageRequest(document: outsideDocument, page: 1, width: 60, height: 40))
        }
        #expect(outsideProblem.kind == .damaged && !outsideProblem.message.contains("\n"), "\(outsideProblem)")
        #expect(outsideProblem.message.contains("frame 2 lies outside the canvas"), "\(outsideProblem.message)")

        // The same worker goes on: the intact file plays.
        let intact = try client.renderFrame(PageRequest(document: DocumentRequest(path: DocumentPath(Samples.path("animations/partial.png"))),
                                                        page: 1, width: 60, height: 40)).image
        #expect(intact.pixel(x: 15, y: 15).green == 255)
    }

    /// A thumbnail of an animation is its first frame that is not blank: the fade-in's red
    /// second frame (its first is white all over); a still first frame stays the thumbnail.
    @Test func aThumbnailIsTheFirstFrameThatIsNotBlank() async throws {
        let fade = try await Document(path: DocumentPath(Samples.path("animations/blank-first.gif"))).thumbnail(size: 64)
        let centre = fade.image.pixel(x: fade.image.width / 2, y: fade.image.height / 2)
        #expect(centre.red == 255 && centre.green == 0 && centre.blue == 0, "the red frame, not the white one: \(centre)")
        let gif = try await Document(path: DocumentPath(Samples.path("animations/animated.gif"))).thumbnail(size: 64)
        #expect(gif.image.pixel(x: 30, y: 20).red == 255 && gif.image.pixel(x: 30, y: 20).green == 0, "the first frame: red")
        // The thumbnailer contract (`quire thumbnail`, through the worker) too.
        let directory = TemporaryDirectory("quire-animation-thumbnail")
        let output = directory.file("fade.png")
        let result = QuireBinary.run(["thumbnail", "-s", "64", Samples.path("animations/blank-first.gif"), output])
        #expect(result.status == 0, "\(result.standardError)")
        let written = try Document(path: DocumentPath(output)).renderer().render(page: 0, size: .natural)
        let pixel = written.pixel(x: written.width / 2, y: written.height / 2)
        #expect(pixel.red == 255 && pixel.green == 0, "\(pixel)")
        // The same for an animated JPEG XL (libjxl's frames) and an AVIF sequence (libavif's),
        // while their first page in a viewer stays the white first frame.
        for sample in ["animations/blank-first.jxl", "animations/blank-first.avif"] {
            let thumbnail = try await Document(path: DocumentPath(Samples.path(sample))).thumbnail(size: 64)
            let middle = thumbnail.image.pixel(x: thumbnail.image.width / 2, y: thumbnail.image.height / 2)
            #expect(middle.red > 240 && middle.green < 16 && middle.blue < 16, "\(sample): the red frame, not the white one: \(middle)")
            let page = try Document(path: DocumentPath(Samples.path(sample))).renderer().render(page: 0, size: .longestSide(64))
            let first = page.pixel(x: page.width / 2, y: page.height / 2)
            #expect(first.red > 240 && first.green > 240 && first.blue > 240, "\(sample): page 1 is the white first frame: \(first)")
        }
    }
}
