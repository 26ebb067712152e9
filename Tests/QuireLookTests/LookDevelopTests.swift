import Foundation
import QuireTestSupport
import Testing

/// A camera RAW photo in the window (Xvfb): the camera's preview first, with a Develop button
/// in the header; Ctrl+Shift+D develops the sensor data in the worker (the picture changes, the
/// button is on, the status says so), and again goes back to the preview. Not offered for
/// other files.
@Suite("quire look window: camera RAW (Xvfb)")
final class LookDevelopTests {
    @Test func developShowsTheSensorDataAndBack() throws {
        let harness = try LookHarness("quire-look-develop")
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("camera.rw2"), Samples.path("animations/moving.gif")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^camera\\.rw2$"))
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Develop" && $0.states.contains("visible") } }
        let button = try #require(tree.first { $0.role == "push button" && $0.name == "Develop" }, "\(tree.map(\.description))")
        #expect(button.states.contains("sensitive"), "\(button)")
        let preview = try harness.screenshot("develop-preview", window: window) { $0.count { r, g, b in r < 250 || g < 250 || b < 250 } > 1_000 }
        bed.key("ctrl+shift+d")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("developing the sensor data at full size") } }
        // (GTK 4.8 gives AT-SPI no pressed state for a toggle button: the status line and the
        // pixels say it is on.)
        // The developed picture (3664×2754, its own shape and pixels) replaces the 8×8 preview.
        let developed = try harness.screenshot("develop-developed", window: window) { $0.differingPixels(from: preview) > 20_000 }
        #expect(developed.differingPixels(from: preview) > 20_000)
        bed.key("ctrl+shift+d")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("the camera's preview") } }
        let back = try harness.screenshot("develop-back", window: window) { $0.differingPixels(from: preview) < 2_000 }
        #expect(back.differingPixels(from: preview) < 2_000, "the preview again")
        // The next file is no RAW: no Develop button.
        bed.key("Right")
        _ = try #require(bed.waitForWindow(named: "^moving\\.gif$"))
        tree = bed.waitForAccessible { !$0.contains { $0.role == "push button" && $0.name == "Develop" && $0.states.contains("visible") } }
        #expect(!tree.contains { $0.role == "push button" && $0.name == "Develop" && $0.states.contains("visible") })
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
