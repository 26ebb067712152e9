import Foundation
@testable import QuireRender
import QuireTypes
import Testing

/// JPEG XL through libjxl (Debian 12 ships no gdk-pixbuf loader for it): samples written by
/// `cjxl` (Samples/generate.sh), drawn and compared with what they were made from.
@Suite struct JPEGXLTests {
    @Test func aLosslessImageIsDrawnWithItsOwnColours() throws {
        try #require(EngineAvailability.missingLibrary(for: try ContentType.detect(try SampleFiles.open("quadrants.jxl"))) == nil,
                     "libjxl is installed by make deps (libjxl-dev)")
        let renderer = try SampleFiles.renderer("quadrants.jxl")
        let image = try renderer.render(size: .natural)
        #expect(image.width == 64 && image.height == 48)
        // quadrants.png: red, green / blue, white — losslessly, so exactly.
        #expect(image.pixel(x: 5, y: 5).isClose(to: 255, 0, 0, tolerance: 0))
        #expect(image.pixel(x: 58, y: 5).isClose(to: 0, 255, 0, tolerance: 0))
        #expect(image.pixel(x: 5, y: 42).isClose(to: 0, 0, 255, tolerance: 0))
        #expect(image.pixel(x: 58, y: 42).isClose(to: 255, 255, 255, tolerance: 0))
        // Scaled as any image is (a thumbnail's longest side).
        let small = try renderer.render(size: .longestSide(32))
        #expect(small.width == 32 && small.height == 24)
        #expect(small.pixel(x: 4, y: 4).isClose(to: 255, 0, 0))
    }

    @Test func itsTypeAndSizeAreKnownWithoutDecoding() throws {
        let file = try SampleFiles.open("quadrants.jxl")
        #expect(try ContentType.detect(file).mimeType == "image/jxl")
        let info = try #require(ImageProbe.info(of: file))
        #expect(info.width == 64 && info.height == 48 && info.format == "jxl")
        #expect(ImageProbe.canRead(try ContentType.detect(file)))
    }

    /// The JPEG's EXIF orientation went into the codestream: drawn upright, as the JPEG is.
    @Test func aTurnedPhotoIsDrawnUprightAsItsJPEGIs() throws {
        let jxl = try SampleFiles.renderer("photo-rotated.jxl").render(size: .natural)
        let jpeg = try SampleFiles.renderer("photo-rotated.jpg").render(size: .natural)
        #expect(jxl.width == jpeg.width && jxl.height == jpeg.height, "\(jxl.width)×\(jxl.height) vs \(jpeg.width)×\(jpeg.height)")
        #expect(jxl.width < jxl.height, "upright: taller than wide")
        var difference = 0, count = 0
        for y in stride(from: 2, to: min(jxl.height, jpeg.height), by: 7) {
            for x in stride(from: 2, to: min(jxl.width, jpeg.width), by: 7) {
                let a = jxl.pixel(x: x, y: y), b = jpeg.pixel(x: x, y: y)
                difference += abs(Int(a.red) - Int(b.red)) + abs(Int(a.green) - Int(b.green)) + abs(Int(a.blue) - Int(b.blue))
                count += 3
            }
        }
        #expect(count > 0 && difference / count < 12, "mean difference \(difference / max(1, count)) a channel")
    }

    @Test func aCutFileIsRefusedInOneLine() throws {
        #expect {
            _ = try SampleFiles.renderer("truncated.jxl").render(size: .natural)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.contains("JPEG XL") && (error.reason.contains("cut short") || error.reason.contains("ends before")) && !error.reason.contains("\n")
        }
    }

    @Test func thePixelLimitIsCheckedFromTheHeader() throws {
        var limits = RenderLimits.standard
        limits.maximumImagePixels = 1000
        #expect {
            _ = try SampleFiles.renderer("quadrants.jxl", limits: limits).render(size: .natural)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("64×48")
        }
    }
}
