import Foundation
import QuireTestSupport
import Testing

/// An animated image in the terminal viewer (tmux): its first frame as a picture, and the
/// status line saying it is animated (the terminal does not play it).
@Suite("quire look terminal: animated images")
struct LookAnimationTerminalTests {
    @Test func theFirstFrameIsShownAndTheStatusLineSaysAnimated() throws {
        let directory = TemporaryDirectory("quire-look-animation-terminal")
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("animations/moving.gif")],
                                      environment: LookEnvironment.plain(directory), width: 120, height: 40)
        let screen = session.wait(for: "animated, 48 frames, 1.9 s")
        #expect(screen.contains("moving.gif │ page 1 of 1 │ animated, 48 frames, 1.9 s"), "\(screen)")
        // The first frame is drawn (half-block cells here): the bar's red is on screen.
        let red = { (screen: String) in screen.contains("38;2;255;40;40") || screen.contains("48;2;255;40;40") }
        let coloured = session.wait(escapes: true) { red($0) }
        #expect(red(coloured) && (coloured.contains("▀") || coloured.contains("▄")), "the bar's red in the cells")
        // A still image says nothing of the kind.
        session.send("q")
        session.wait(for: "EXIT=")
        let still = try TmuxSession([QuireBinary.path, "look", Samples.path("animations/animated.png")],
                                    environment: LookEnvironment.plain(directory), width: 120, height: 40)
        let png = still.wait(for: "page 1 of 1")
        #expect(png.contains("animated, 4 frames, 0.2 s"), "an APNG is animated too (shown still): \(png)")
        still.send("q")
        still.wait(for: "EXIT=")
    }
}
