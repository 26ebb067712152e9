#if canImport(Glibc)
import Glibc
#endif
import CGtk
import Quire
import QuireRenderService
import QuireViewer
import QuireSystem

/// Plays the current file when it is an animated GIF or WebP: its frames come from the render
/// worker (``ViewerModel/frameJob(_:fitting:)``, a few ahead of the one shown), each shown for
/// its own delay by a GLib timeout on the main loop, for as many plays as the file asks. The
/// page view paints the frame shown in place of page 1 (the first frame, which it has already).
///
/// Frames are kept as cairo surfaces within ``byteLimit`` bytes: a short animation is asked of
/// the worker once and then plays from memory; a long one keeps the frames just ahead and
/// drops those furthest from being shown next.
///
/// Timing follows the file's clock, not the main loop's: each frame is due its delay after the
/// one before was due, so a late frame does not push every later one back (a player more than
/// one frame behind starts its clock again from now).
@MainActor
final class AnimationPlayer {
    private let model: ViewerModel
    /// Asks the page view to draw again (a new frame is shown).
    var redraw: () -> Void = {}
    /// Called when playing starts or stops or a problem is met (the status line says so).
    var onChange: () -> Void = {}

    /// The animation being played: which file, at which size (a frame job's identity).
    private struct Playing: Equatable {
        let file: Int
        let width: Int
        let height: Int
        let frames: Int
        /// Plays after the first: 0 forever, nil once.
        let loops: Int?
    }
    private var playing: Playing?
    /// The frame shown (0-based).
    private(set) var current = 0
    /// Whether the frames move on by themselves (Space… `k` pauses).
    private(set) var isPlaying = false
    /// Plays finished so far (for the loop count), and whether the last one has.
    private var playsDone = 0
    private var ended = false
    /// Why the animation stopped (a frame the worker could not draw), for the status line.
    private(set) var problem: String?
    /// Frames the timeout wanted to show before they arrived: shown as soon as they do.
    private var waitingFor: Int?
    /// When the frame shown was due (ms, CLOCK_MONOTONIC): the next is due its delay later.
    private var shownAt = 0.0
    /// Each scheduled timeout carries the generation it was made in; pausing, stepping or a new
    /// file moves it on, and an older timeout does nothing when it fires.
    private var generation = 0

    private struct Frame {
        let surface: OpaquePointer  // cairo_surface_t, owned
        let pixels: PagePixels
        let delay: Int
    }
    private var frames: [Int: Frame] = [:]
    private var bytes = 0
    /// Converted frames kept at most (bytes).
    let byteLimit = 32 << 20
    /// Frames asked for ahead of the one shown: at least 4, and enough for half a second of
    /// playing (a loaded machine can keep the worker from answering for that long); the byte
    /// limit decides in the end.
    private var ahead: Int {
        guard let playing, let delay = frames[current]?.delay, delay > 0 else { return 4 }
        return min(playing.frames - 1, max(4, 500 / delay))
    }
    /// Frames shown since the player started (the benchmark compares it with the time played).
    private(set) var framesShown = 0

    init(model: ViewerModel) {
        self.model = model
    }

    /// Whether the current file is an animation being played or paused here.
    var isActive: Bool { playing != nil }

    /// The frame to paint in place of page 1 at `job`'s size, when there is one.
    func surface(for job: PageRenderJob) -> OpaquePointer? {
        guard let playing, playing.file == job.file, playing.width == job.width, playing.height == job.height else { return nil }
        return frames[current]?.surface
    }

    /// Follows the current file and the page view's size (`box`, as the page view fits pages):
    /// a new animation starts playing from its first frame; another size asks for the frames
    /// again at that size (the frame shown stays); anything else stops.
    func follow(fitting box: (width: Int, height: Int)) {
        guard let animation = model.playableAnimation, let first = model.frameJob(0, fitting: box) else {
            if playing != nil { stop() }
            return
        }
        let wanted = Playing(file: first.file, width: first.width, height: first.height, frames: animation.frames,
                             loops: animation.loops)
        lastBox = box
        guard wanted != playing else { return }
        let sameFile = playing?.file == wanted.file && playing?.frames == wanted.frames
        dropFrames()
        playing = wanted
        generation += 1
        waitingFor = nil
        if sameFile {
            // Resized or zoomed: the same frame at the new size, then on.
            if isPlaying { waitingFor = current }
        } else {
            current = 0
            playsDone = 0
            ended = false
            problem = nil
            isPlaying = true
            shownAt = Self.now()
            waitingFor = 0
            LookTrace.mark("animation started (\(animation.frames) frames)")
        }
        askAhead()
        onChange()
    }

    /// Stops playing and forgets the frames (another file, or the window closes).
    func stop() {
        generation += 1
        playing = nil
        isPlaying = false
        waitingFor = nil
        dropFrames()
        model.want([], for: .animation)
    }

    /// Pauses, or plays on from the frame shown (from the start after the last play ended).
    func playPause() {
        guard playing != nil else { return }
        if isPlaying {
            isPlaying = false
            generation += 1
            waitingFor = nil
            LookTrace.mark("animation paused at frame \(current + 1)")
        } else {
            if ended {
                ended = false
                current = 0
                playsDone = 0
            }
            problem = nil
            isPlaying = true
            generation += 1
            shownAt = Self.now()
            LookTrace.mark("animation playing from frame \(current + 1)")
            if let frame = frames[current] { schedule(after: frame.delay) } else { waitingFor = current }
        }
        askAhead()
        onChange()
    }

    /// Pauses and shows the frame `step` frames on (−1 the one before), wrapping around.
    func step(_ step: Int) {
        guard let playing else { return }
        isPlaying = false
        ended = false
        generation += 1
        current = ((current + step) % playing.frames + playing.frames) % playing.frames
        waitingFor = nil
        LookTrace.mark("animation stepped to frame \(current + 1)")
        askAhead(including: true)
        redraw()
        onChange()
    }

    /// "playing", "frame 3 of 48, paused" for the status line; nil when nothing plays.
    var status: String? {
        guard let playing else { return nil }
        if let problem { return "frame \(current + 1) of \(playing.frames): \(problem)" }
        return isPlaying ? "playing" : "frame \(current + 1) of \(playing.frames), " + (ended ? "ended" : "paused")
    }

    /// A frame from the render thread.
    func received(_ job: PageRenderJob, _ result: Result<AnimationFrame, RenderProblem>) {
        guard let playing, let number = job.frame, job.file == playing.file, job.width == playing.width,
              job.height == playing.height else { return }
        switch result {
        case .failure(let failure):
            LookTrace.mark("animation frame \(number + 1) failed: \(failure.message)")
            problem = failure.message
            isPlaying = false
            generation += 1
            waitingFor = nil
            onChange()
        case .success(let frame):
            guard frames[number] == nil else { return }
            let pixels = frame.pixels
            let surface = cairo_image_surface_create_for_data(pixels.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                              Int32(pixels.width), Int32(pixels.height), Int32(pixels.width * 4))!
            frames[number] = Frame(surface: surface, pixels: pixels, delay: max(1, frame.delay))
            bytes += pixels.byteCount
            trim()
            if waitingFor == number {
                waitingFor = nil
                show(number)
            } else if number == current {
                redraw()  // a step's frame, or the first at a new size
            }
            askAhead()
        }
    }

    // MARK: Playing

    /// Shows frame `number` now and schedules the next.
    private func show(_ number: Int) {
        current = number
        framesShown += 1
        if LookTrace.isOn { LookTrace.mark("animation frame \(number + 1) shown") }
        redraw()
        if isPlaying, let frame = frames[number] { schedule(after: frame.delay) }
    }

    private func schedule(after delay: Int) {
        let due = shownAt + Double(delay)
        let now = Self.now()
        // More than a frame behind: the clock starts again from now rather than racing.
        shownAt = due < now - Double(delay) ? now : due
        let wait = max(0, shownAt - now)
        let token = generation
        Signal.timeout(milliseconds: UInt32(wait.rounded())) { [weak self] in
            guard let self, self.generation == token else { return }
            self.advance()
        }
    }

    /// The timeout of the frame shown ran out: the next frame, the next play, or the end.
    private func advance() {
        guard let playing, isPlaying else { return }
        var next = current + 1
        if next >= playing.frames {
            playsDone += 1
            // loops: nil plays once, 0 forever, n plays n + 1 times.
            if playing.loops != 0 && playsDone >= (playing.loops ?? 0) + 1 {
                isPlaying = false
                ended = true
                LookTrace.mark("animation ended after \(playsDone) plays")
                onChange()
                return
            }
            next = 0
        }
        if frames[next] != nil {
            show(next)
        } else {
            waitingFor = next
            LookTrace.mark("animation frame \(next + 1) late")
        }
        askAhead()
    }

    /// Asks the worker for the frames about to be shown that are not kept (the current one
    /// too, when `including` or while it is awaited), as many as fit in the byte limit.
    private func askAhead(including: Bool = false) {
        guard let playing else { return }
        var wanted: [PageRenderJob] = []
        let frameBytes = playing.width * playing.height * 4
        var budget = byteLimit - frameBytes  // the frame shown stays
        for offset in 0...max(1, ahead) {
            let number = (current + offset) % playing.frames
            if offset == 0 && !(including || waitingFor == number || frames[number] == nil) { continue }
            if offset > 0 {
                budget -= frameBytes
                if budget < 0 { break }
            }
            guard frames[number] == nil, let job = frameJob(number) else { continue }
            if !wanted.contains(job) { wanted.append(job) }
        }
        model.want(wanted, for: .animation)
    }

    /// Frame `number` at the playing size (fitted into the page view's box, as page 1 is).
    private func frameJob(_ number: Int) -> PageRenderJob? {
        guard let playing, let box = lastBox, let job = model.frameJob(number, fitting: box), job.width == playing.width,
              job.height == playing.height else { return nil }
        return job
    }

    /// The box the page view fits pages into (the last ``follow(fitting:)``).
    private var lastBox: (width: Int, height: Int)?

    /// Keeps the frames within the byte limit: those furthest from being shown go first.
    private func trim() {
        guard let playing else { return }
        while bytes > byteLimit, frames.count > 1 {
            let distance = { (number: Int) in (number - self.current + playing.frames) % playing.frames }
            guard let furthest = frames.keys.filter({ $0 != current }).max(by: { distance($0) < distance($1) }) else { break }
            drop(furthest)
        }
    }

    private func drop(_ number: Int) {
        guard let frame = frames.removeValue(forKey: number) else { return }
        bytes -= frame.pixels.byteCount
        cairo_surface_destroy(frame.surface)
    }

    private func dropFrames() {
        for number in Array(frames.keys) { drop(number) }
    }

    private static func now() -> Double { MonotonicClock.milliseconds() }
}
