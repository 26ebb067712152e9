import Foundation
import QuireTestSupport
import Testing

/// Animated images in the window (Xvfb), as a person watches them: the animation plays by
/// itself at its own pace, `k` pauses it (the picture stops), `.` and `,` step a frame, `k`
/// plays on; one with too many frames shows its first frame and says why it does not play.
@Suite("quire look window: animated images (Xvfb)")
final class LookAnimationTests {
    /// Where the red bar of Samples' moving.gif is across the screenshot (its left edge), nil
    /// when no bar is seen. The bar moves 13 px a frame (48 frames of 40 ms).
    static func bar(_ shot: Screenshot) -> Int? {
        shot.bounds { r, g, b in r > 200 && g < 90 && b < 90 }.map(\.x)
    }

    @Test func anAnimatedGIFPlaysPausesAndSteps() throws {
        let harness = try LookHarness("quire-look-animation")
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("animations/moving.gif")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^moving\\.gif$"))
        // Playing: two screenshots a few frame delays (40 ms) apart show the bar in two places.
        let first = try harness.screenshot("animation-first", window: window) { Self.bar($0) != nil }
        let start = try #require(Self.bar(first), "the first frame is on screen")
        var moved: Screenshot?
        let deadline = Date().addingTimeInterval(20)
        var shot = 0
        while moved == nil, Date() < deadline {
            usleep(200_000)
            let next = try Screenshot(path: bed.screenshot("animation-playing-\(shot)", window: window))
            shot += 1
            if let x = Self.bar(next), x != start, next.differingPixels(from: first) > 2_000 { moved = next }
        }
        let playing = try #require(moved, "the page's pixels changed while it plays")
        #expect(playing.differingPixels(from: first) > 2_000)
        var tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.hasPrefix("animated, 48 frames, 1.9 s · playing") } }
        #expect(tree.contains { $0.role == "label" && $0.name == "animated, 48 frames, 1.9 s · playing · k pause/play, . and , step" },
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        // Paused with k: the status says so, and the picture stops changing.
        bed.key("k")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains(", paused") } }
        let status = try #require(tree.first { $0.role == "label" && $0.name.contains(", paused") }?.name)
        let frame = try #require(Int(status.split(separator: "frame ")[1].split(separator: " ")[0]), "\(status)")
        usleep(300_000)  // a frame already on its way is drawn
        let paused = try Screenshot(path: bed.screenshot("animation-paused-0", window: window))
        for index in 1...3 {
            usleep(250_000)  // six frame delays
            let later = try Screenshot(path: bed.screenshot("animation-paused-\(index)", window: window))
            #expect(later.differingPixels(from: paused) < 50, "paused: the picture stays (\(later.differingPixels(from: paused)) pixels changed)")
            #expect(Self.bar(later) == Self.bar(paused))
        }
        // `.` shows the next frame (the bar 13 px on), `,` the one before again.
        bed.key("period")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("frame \(frame % 48 + 1) of 48, paused") } }
        let stepped = try harness.screenshot("animation-stepped", window: window) { Self.bar($0) != Self.bar(paused) }
        let before = try #require(Self.bar(paused)), after = try #require(Self.bar(stepped))
        #expect(after - before == 13 || frame == 48, "one frame on: the bar moved from \(before) to \(after)")
        bed.key("comma")
        let back = try harness.screenshot("animation-back", window: window) { Self.bar($0) == before }
        #expect(Self.bar(back) == before)
        // k again: it plays on.
        bed.key("k")
        let resumed = try harness.screenshot("animation-resumed", window: window) { Self.bar($0) != before }
        #expect(Self.bar(resumed) != before)
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// An animated JPEG XL and an AVIF sequence (red, green, blue, 100 ms each) play in the
    /// window as a GIF does: their frames come from libjxl and libavif in the worker, the picture
    /// changes on its own, and paused and stepped it shows each colour in turn.
    @Test(arguments: ["jxl", "avif"])
    func anAnimatedJPEGXLOrAVIFPlays(format: String) throws {
        let harness = try LookHarness("quire-look-animation-\(format)")
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("animations/animated.\(format)")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^animated\\.\(format)$"))
        var tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.hasPrefix("animated, 3 frames, 0.3 s · playing") } }
        #expect(tree.contains { $0.role == "label" && $0.name.hasPrefix("animated, 3 frames, 0.3 s · playing") },
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        // Playing: screenshots (at uneven intervals, so a loaded machine's steady screenshot time
        // cannot keep landing on the same frame) until two colours have filled the picture (60×40:
        // a raster is not enlarged): it changes on its own.
        let colours: [(name: String, test: (UInt8, UInt8, UInt8) -> Bool)] = [
            ("red", { r, g, b in r > 200 && g < 60 && b < 60 }), ("green", { r, g, b in g > 200 && r < 60 && b < 60 }),
            ("blue", { r, g, b in b > 200 && r < 60 && g < 60 })]
        var seen: Set<String> = []
        let deadline = Date().addingTimeInterval(20)
        var shot = 0
        while seen.count < 2, Date() < deadline {
            let image = try Screenshot(path: bed.screenshot("animation-\(format)-\(shot)", window: window))
            shot += 1
            for colour in colours where image.count(colour.test) > 2_000 { seen.insert(colour.name) }
            usleep(useconds_t.random(in: 20_000...170_000))
        }
        #expect(seen.count >= 2, "the picture changes while it plays: \(seen)")
        // Paused (k) and stepped with `.`: each frame in turn is shown, red, green, blue, however
        // loaded the machine is.
        bed.key("k")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains(", paused") } }
        let status = try #require(tree.first { $0.role == "label" && $0.name.contains(", paused") }?.name, "paused")
        var frame = try #require(Int(status.split(separator: "frame ")[1].split(separator: " ")[0]), "\(status)")
        var stepped: Set<String> = []
        for _ in 0..<3 {
            bed.key("period")
            frame = frame % 3 + 1
            tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("frame \(frame) of 3, paused") } }
            let colour = colours[frame - 1]
            let image = try harness.screenshot("animation-\(format)-frame-\(frame)", window: window) { $0.count(colour.test) > 2_000 }
            if image.count(colour.test) > 2_000 { stepped.insert(colour.name) }
        }
        #expect(stepped == ["red", "green", "blue"], "the frames shown in turn: \(stepped)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// 10,000 full-size frames: the first frame (red all over) is shown, the status line says
    /// in one line why it does not play, and the window answers keys (no hang).
    @Test func tooManyFramesShowsTheFirstFrameAndSaysWhy() throws {
        let harness = try LookHarness("quire-look-animation-hostile")
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("animations/many-frames.gif")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^many-frames\\.gif$"))
        let shot = try harness.screenshot("animation-too-many", window: window) { $0.count { r, g, b in r > 200 && g < 60 && b < 60 } > 50_000 }
        #expect(shot.count { r, g, b in r > 200 && g < 60 && b < 60 } > 50_000, "the first frame, red, is drawn")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("too many frames to play") } }
        let line = try #require(tree.first { $0.role == "label" && $0.name.contains("too many frames to play") }?.name)
        #expect(line == "too many frames to play (10000 of 1000×1000 px, over the 100-megapixel limit)", "\(line)")
        // No play keys for it, and the window still closes at once.
        bed.key("k")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
