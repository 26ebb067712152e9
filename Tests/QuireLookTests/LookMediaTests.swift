import Foundation
import QuireTestSupport
import Testing

/// Video and audio in the Quick Look window (Xvfb): the poster from the render worker, Play,
/// frames that change while it plays, the playback controls.
@Suite("quire look window: video and audio (Xvfb)")
final class LookMediaTests {
    let directory = TemporaryDirectory("quire-look-media")

    func look(_ files: [String], _ bed: WindowTestBed) throws -> BackgroundProcess {
        let environment = bed.environment(ProcessInfo.processInfo.environment,
                                          ["XDG_STATE_HOME": directory.file("state"), "XDG_CONFIG_HOME": directory.file("config"),
                                           "CUPS_SERVER": "127.0.0.1:1"])
        return try BackgroundProcess([QuireBinary.path, "look"] + files, environment: environment, directory: directory.path)
    }

    /// Pixels that differ by more than 40 in any channel between two screenshots of one size.
    static func changed(_ a: Screenshot, _ b: Screenshot) -> Int {
        guard a.image.pixels.count == b.image.pixels.count else { return Int.max }
        var count = 0
        a.image.pixels.withUnsafeBufferPointer { x in
            b.image.pixels.withUnsafeBufferPointer { y in
                var offset = 0
                while offset < x.count {
                    if abs(Int(x[offset]) - Int(y[offset])) > 40 || abs(Int(x[offset + 1]) - Int(y[offset + 1])) > 40 { count += 1 }
                    offset += 4
                }
            }
        }
        return count
    }

    @Test func aVideoShowsItsPosterThenPlaysWithControlsAndItsFramesChange() throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/gtk-4.0/4.0.0/media/libmedia-gstreamer.so"),
                     "GTK's GStreamer media back end (libgtk-4-media-gstreamer): make test installs it")
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("media/moving.webm")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^moving\\.webm$")
        #expect(window != nil)
        // The poster: a white ball on black, drawn by the worker.
        let poster = try bed.waitForScreenshot("poster", window: window) { $0.whitePixels > 100 && $0.darkPixels > 20_000 }
        #expect(poster.whitePixels > 100)
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Play" } }
        #expect(tree.contains { $0.role == "push button" && $0.name == "Play" })
        // The card under the title: its length and picture, from the worker's facts.
        #expect(tree.contains { $0.role == "label" && $0.name.contains("0:06") && $0.name.contains("VP8, 320 × 240, 25 fps") },
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(bed.press("Play"))
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "Playing moving.webm" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "Playing moving.webm" })
        // Playing: the media controls, no page or zoom controls under the video.
        #expect(!tree.contains { ["Zoom In", "Fit Page", "Go to Page"].contains($0.name) && $0.states.contains("showing") },
                "\(tree.filter { $0.states.contains("showing") && $0.role == "push button" }.map(\.name))")
        // The frames move: two screenshots half a second apart differ where the ball was.
        var moved = 0
        let deadline = Date().addingTimeInterval(6)
        var previous = try Screenshot(path: bed.screenshot("playing-0", window: window))
        var shot = 1
        while moved < 200, Date() < deadline {
            usleep(400_000)
            let next = try Screenshot(path: bed.screenshot("playing-\(shot)", window: window))
            moved = max(moved, Self.changed(previous, next))
            previous = next
            shot += 1
        }
        #expect(moved >= 200, "frames changed in \(moved) pixels")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// An archive's files as a sortable list; Enter opens the chosen one in the window.
    @Test func anArchivesFilesAreListedSortedAndOneOpens() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("archives/project.tar.gz")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^project\\.tar\\.gz$")
        #expect(window != nil)
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Open a File from the Archive" } }
        #expect(bed.press("Open a File from the Archive"))
        tree = bed.waitForAccessible { $0.contains { $0.name.hasSuffix("project/src/util/strings.c") } }
        let rows = tree.filter { $0.name.contains("2023-11-14") }.map(\.name)
        #expect(rows.count == 4 && rows.first?.hasSuffix("project/README.md") == true, "\(rows)")
        #expect(bed.press("Sort by Size"))
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("sorted by size") } }
        let bySize = tree.filter { $0.name.contains("2023-11-14") }.map(\.name)
        #expect(bySize.first?.hasSuffix("project/docs/guide.txt") == true, "\(bySize)")
        // The list: no page or zoom controls under it.
        #expect(!tree.contains { ["Zoom In", "Fit Page", "Go to Page"].contains($0.name) && $0.states.contains("showing") })
        let list = try bed.waitForScreenshot("archive-entries", window: window) { $0.darkPixels > 300 }
        #expect(list.darkPixels > 300, "the list is painted")
        // The first row (the largest file) opens with Enter.
        bed.key("Home")
        bed.key("Return")
        #expect(bed.waitForWindow(named: "^guide\\.txt$") != nil, "the entry opened: \(bed.accessibilityTree().filter { $0.role == "label" }.map(\.name))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aFontAndAnArchiveAreShownAsPagesWithNoPlayButton() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("fonts/DejaVuSans.ttf"), Samples.path("archives/project.tar.gz")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^DejaVuSans\\.ttf$")
        let specimen = try bed.waitForScreenshot("specimen", window: window) { $0.whitePixels > 100_000 && $0.darkPixels > 2_000 }
        #expect(specimen.darkPixels > 2_000, "the specimen is painted")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 1" } }
        #expect(!tree.contains { $0.role == "push button" && $0.name == "Play" && $0.states.contains("showing") })
        bed.key("Right")
        #expect(bed.waitForWindow(named: "^project\\.tar\\.gz$") != nil)
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 1" } }
        let listing = try bed.waitForScreenshot("listing", window: window) { $0.whitePixels > 100_000 && $0.darkPixels > 300 }
        #expect(listing.darkPixels > 300, "the listing is painted")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
