import Foundation
import QuireTestSupport
import Testing

/// A camera RAW photo in the terminal viewer (tmux): the camera's preview first, D develops its
/// sensor data in the worker (the card says what is shown), D again goes back to the preview.
@Suite("quire look terminal: camera RAW")
struct LookDevelopTerminalTests {
    @Test func dDevelopsTheSensorDataAndBack() throws {
        let directory = TemporaryDirectory("quire-look-develop-terminal")
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("camera.rw2")],
                                      environment: LookEnvironment.plain(directory), width: 120, height: 40)
        session.wait(for: "page 1 of 1")
        session.send("i")
        let card = session.wait(for: "Camera")
        #expect(card.contains("Panasonic DMC-LX3") && !card.contains("developed"), "\(card)")
        session.send("D")
        // The card's row wraps in its column: "Shown  the sensor data, developed" / "(3664×2754)".
        let developed = session.wait(for: "(3664×2754)")
        #expect(developed.contains("Shown") && developed.contains("the sensor data, developed"), "\(developed)")
        session.send("D")
        let back = session.wait { $0.contains("the camera's preview") && !$0.contains("(3664×2754)") }
        #expect(!back.contains("the sensor data, developed"), "\(back)")
        session.send("q")
        session.wait(for: "EXIT=")
        // Not a RAW: D says so and changes nothing.
        let gif = try TmuxSession([QuireBinary.path, "look", Samples.path("animations/moving.gif")],
                                  environment: LookEnvironment.plain(directory), width: 120, height: 40)
        gif.wait(for: "page 1 of 1")
        gif.send("D")
        let refused = gif.wait(for: "nothing to develop")
        #expect(refused.contains("not a camera RAW photo: nothing to develop"), "\(refused)")
        gif.send("q")
        gif.wait(for: "EXIT=")
    }
}
