import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// Animated GIF, APNG and WebP: frames, one play's length and the loop count from the
/// containers' own blocks (samples written by Pillow with known delays and loops); still,
/// garbage and truncated images give nothing or what was read, never a crash.
@Suite struct AnimationInfoTests {
    @Test func framesLengthAndLoopsOfEachFormat() throws {
        let gif = try #require(AnimationInfo.read(try SampleFiles.open("animations/animated.gif")))
        #expect(gif.frames == 3 && abs(gif.duration - 0.3) < 0.001 && gif.loops == 0, "\(gif)")
        let png = try #require(AnimationInfo.read(try SampleFiles.open("animations/animated.png")))
        #expect(png.frames == 4 && abs(png.duration - 0.2) < 0.001 && png.loops == 1, "played twice: \(png)")
        let webp = try #require(AnimationInfo.read(try SampleFiles.open("animations/animated.webp")))
        #expect(webp.frames == 5 && abs(webp.duration - 1.0) < 0.001 && webp.loops == 0, "\(webp)")
        #expect(gif.cardRows.map { "\($0.label): \($0.value)" } == ["Frames: 3", "Animation: 0.30 s, loops forever"])
        #expect(png.cardRows.last?.value == "0.20 s, plays 2 times")
    }

    @Test func stillGarbageAndTruncatedImages() throws {
        for still in ["format.gif", "format.png", "format.webp", "garbage.gif", "truncated.png"] {
            #expect(AnimationInfo.read(try SampleFiles.open(still)) == nil, "\(still)")
        }
        // Cut in its second frame: one whole frame read, so not an animation.
        #expect(AnimationInfo.read(try SampleFiles.open("animations/truncated.gif")) == nil)
        // Every prefix of the animated GIF parses without trapping.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: SampleFiles.path("animations/animated.gif"))))
        for length in 0...bytes.count {
            let info = AnimationInfo.gif(Array(bytes.prefix(length)))
            #expect((info?.frames ?? 0) <= 3)
        }
    }

    @Test func theCardOfTheRendererSaysSo() throws {
        let renderer = try SampleFiles.renderer("animations/animated.webp")
        #expect(renderer.details.contains { $0.label == "Frames" && $0.value == "5" }, "\(renderer.details)")
    }
}
