import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// document.pdf page 1: a pure red rectangle at (72, 72), 200 × 100 pt, on an A4 page.
@Suite struct PDFRenderingTests {
    static let pageWidth = 595.28

    @Test(arguments: [595, 298])
    func redRectangleLandsWhereItWasDrawn(width: Int) throws {
        let renderer = try SampleFiles.renderer("document.pdf")
        #expect(renderer.pageCount == 3)
        let image = try renderer.render(page: 0, size: .width(width))
        let scale = Double(width) / Self.pageWidth
        #expect(image.width == width)
        #expect(image.height == Int((841.89 * scale).rounded()))
        func px(_ pt: Double) -> Int { Int(pt * scale) }
        // Inside, near each corner and in the middle: pure red.
        for (x, y) in [(76.0, 76.0), (268.0, 76.0), (76.0, 168.0), (268.0, 168.0), (172.0, 122.0)] {
            let pixel = image.pixel(x: px(x), y: px(y))
            #expect(pixel == .init(red: 255, green: 0, blue: 0, alpha: 255), "at \(x),\(y) pt: \(pixel)")
        }
        // Just outside each side: white paper.
        for (x, y) in [(66.0, 122.0), (278.0, 122.0), (172.0, 66.0), (172.0, 178.0)] {
            let pixel = image.pixel(x: px(x), y: px(y))
            #expect(pixel == .init(red: 255, green: 255, blue: 255, alpha: 255), "at \(x),\(y) pt: \(pixel)")
        }
    }

    @Test func fitBoxLimitsTheLongestSide() throws {
        let renderer = try SampleFiles.renderer("document.pdf")
        let image = try renderer.render(page: 1, size: .longestSide(128))
        #expect(image.height == 128)
        #expect(image.width == Int((595.28 * 128 / 841.89).rounded()))
    }

    @Test func encryptedNeedsThePassword() throws {
        #expect {
            _ = try SampleFiles.renderer("encrypted.pdf")
        } throws: { ($0 as? DocumentError)?.kind == .passwordRequired }
        #expect {
            _ = try SampleFiles.renderer("encrypted.pdf", password: "wrong")
        } throws: { ($0 as? DocumentError)?.kind == .passwordRequired }
        let renderer = try SampleFiles.renderer("encrypted.pdf", password: "secret")
        let image = try renderer.render(page: 0, size: .width(298))
        #expect(image.pixel(x: 86, y: 61).isClose(to: 255, 0, 0, tolerance: 0))
    }

    @Test func missingPageIsAnError() throws {
        let renderer = try SampleFiles.renderer("document.pdf")
        #expect(throws: DocumentError.self) { try renderer.render(page: 3, size: .width(100)) }
    }

    @Test(arguments: ["truncated.pdf", "garbage.pdf"])
    func damagedPDFsAreRefused(name: String) throws {
        #expect {
            _ = try SampleFiles.renderer(name)
        } throws: { ($0 as? DocumentError)?.kind == .damaged }
    }

    @Test func postScriptRedRectangleMatchesThePDF() throws {
        let renderer = try SampleFiles.renderer("document.ps")
        #expect(renderer.pageCount == 2)
        let image = try renderer.render(page: 0, size: .width(595))
        #expect(image.pixel(x: 172, y: 122).isClose(to: 255, 0, 0, tolerance: 2))
        #expect(image.pixel(x: 76, y: 76).isClose(to: 255, 0, 0, tolerance: 2))
        #expect(image.pixel(x: 66, y: 122).isClose(to: 255, 255, 255, tolerance: 2))
        #expect(image.pixel(x: 278, y: 122).isClose(to: 255, 255, 255, tolerance: 2))
    }
}

@Suite struct OutputLimitTests {
    @Test func hugePagesAreScaledToThePixelBudget() throws {
        let file = try SampleFiles.open("document.pdf")
        var limits = RenderLimits.standard
        limits.maximumOutputPixels = 100_000
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file), limits: limits)
        let image = try renderer.render(page: 0, size: .width(2000))
        #expect(image.width * image.height <= 100_000)
        #expect(abs(Double(image.width) / Double(image.height) - 595.28 / 841.89) < 0.01)
        // The red rectangle is still where it belongs.
        let scale = Double(image.width) / 595.28
        #expect(image.pixel(x: Int(172 * scale), y: Int(122 * scale)).isClose(to: 255, 0, 0, tolerance: 0))
    }
}
