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
        // The frames move: two screenshots half a second apart differ where the ball was. The
        // wait is generous: it ends as soon as they do, and a starved machine (load average 12
        // on two cores) showed no new frame within 6 s.
        var moved = 0
        let deadline = Date().addingTimeInterval(20)
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

    /// The archive's files in row order (the Name cells' labels, top to bottom).
    static func rows(_ tree: [WindowTestBed.Accessible]) -> [String] {
        tree.filter { $0.role == "label" && $0.name.hasPrefix("project/") }
            .sorted { ($0.extents?.y ?? 0) < ($1.extents?.y ?? 0) }.map(\.name)
    }

    /// An archive's files as a column view (Name with the type's icon, Size, Modified), sorted
    /// by clicking a header (again: the other way); a double click or Enter opens the chosen
    /// file in the window, Left goes back to the archive.
    @Test func anArchivesFilesAreListedSortedAndOneOpens() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("archives/project.tar.gz")], bed)
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^project\\.tar\\.gz$"))
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Open a File from the Archive" } }
        #expect(bed.press("Open a File from the Archive"))
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("sorted by name (A to Z)") } }
        // The column headers, named after their columns, the sorted one saying so.
        let headers = ["Name", "Size", "Modified"].map { title in
            tree.first { $0.name == title && $0.role != "label" && $0.detail.contains("ort") }
        }
        #expect(headers.allSatisfy { $0 != nil }, "\(tree.filter { ["Name", "Size", "Modified"].contains($0.name) })")
        #expect(headers[0]?.detail == "Sorted ascending; click to reverse")
        #expect(headers[1]?.detail == "Click to sort by size")
        #expect(Self.rows(tree) == ["project/README.md", "project/docs/guide.txt", "project/src/main.c", "project/src/util/strings.c"],
                "\(Self.rows(tree))")
        // Each row: the type's icon, the size and the date in cells of their own.
        let cells = tree.filter { $0.role == "table cell" }
        #expect(cells.count == 12, "\(cells)")
        let names = tree.filter { $0.role == "label" && $0.name.hasPrefix("project/") }
        let icons = names.filter { name in
            tree.contains { icon in
                guard icon.role == "image", let at = icon.extents, let label = name.extents else { return false }
                return abs(at.y - label.y) <= 4 && at.x < label.x && at.width >= 16
            }
        }
        #expect(icons.count == 4, "a type icon before each name: \(icons.map(\.name))")
        #expect(tree.contains { $0.role == "label" && $0.name == "6.0 kB" })
        #expect(tree.filter { $0.role == "label" && $0.name == "2023-11-14 22:13" }.count == 4)
        // The Size header sorts: smallest first, then (clicked again) largest first.
        let size = try #require(headers[1]?.extents)
        bed.click(window: window, x: size.x + size.width / 2, y: size.y + size.height / 2)
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("sorted by size (smallest first)") } }
        #expect(Self.rows(tree) == ["project/README.md", "project/src/main.c", "project/src/util/strings.c", "project/docs/guide.txt"],
                "\(Self.rows(tree))")
        // The second click waits out the double-click time (GTK's default 400 ms): two clicks
        // closer than that on a loaded machine arrive as one double press.
        usleep(600_000)
        bed.click(window: window, x: size.x + size.width / 2, y: size.y + size.height / 2)
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("sorted by size (largest first)") } }
        let bySize = Self.rows(tree)
        #expect(bySize == ["project/docs/guide.txt", "project/src/util/strings.c", "project/src/main.c", "project/README.md"], "\(bySize)")
        #expect(tree.contains { $0.name == "Size" && $0.detail == "Sorted descending; click to reverse" })
        // The list: no page or zoom controls under it.
        #expect(!tree.contains { ["Zoom In", "Fit Page", "Go to Page"].contains($0.name) && $0.states.contains("showing") })
        let list = try bed.waitForScreenshot("archive-entries", window: window) { $0.darkPixels > 300 }
        #expect(list.darkPixels > 300, "the list is painted")
        // Esc leaves the list for the archive's listing page; the button brings it back as it was.
        bed.key("Escape")
        tree = bed.waitForAccessible { !$0.contains { $0.name.contains("sorted by size") && $0.states.contains("showing") } }
        #expect(!tree.contains { $0.name.contains("sorted by size") && $0.states.contains("showing") })
        #expect(bed.hasWindow(named: "^project\\.tar\\.gz$"), "Esc on the list does not close the window")
        #expect(bed.press("Open a File from the Archive"))
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("sorted by size (largest first)") && $0.states.contains("showing") } }
        // A double click on a row opens that file.
        let mainRow = try #require(tree.first { $0.role == "label" && $0.name == "project/src/main.c" }?.extents)
        bed.click(window: window, x: mainRow.x + 40, y: mainRow.y + mainRow.height / 2, count: 2)
        #expect(bed.waitForWindow(named: "^main\\.c$") != nil, "the entry opened: \(bed.accessibilityTree().filter { $0.role == "label" }.map(\.name))")
        // Back to the archive; its list again, still sorted by size (largest first): Enter opens the first row.
        bed.key("Left")
        #expect(bed.waitForWindow(named: "^project\\.tar\\.gz$") != nil)
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Open a File from the Archive" && $0.states.contains("showing") } }
        #expect(bed.press("Open a File from the Archive"))
        // The list shown again (not the one hidden behind the page a moment ago, still in the
        // tree): the keys below go to it.
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("sorted by size (largest first)") && $0.states.contains("showing") } }
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
