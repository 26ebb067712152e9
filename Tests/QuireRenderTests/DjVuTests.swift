import Testing
@testable import QuireRender
import QuireTypes

/// DjVu through DjVuLibre: every page at its size and resolution, drawn; the hidden text layer
/// for text, find (case and accents ignored) and copy boxes; indirect documents read page files
/// only from their own folder; damage costs the page, not the viewer.
@Suite struct DjVuTests {
    @Test func pagesHaveTheirSizeAndAreDrawn() throws {
        let renderer = try SampleFiles.renderer("djvu/book.djvu")
        #expect(renderer.pageCount == 3)
        #expect(renderer.pageSize(at: 0) == PageSize(width: 288, height: 216))   // 400×300 px at 100 dpi
        #expect(renderer.pageSize(at: 1) == PageSize(width: 612, height: 792))   // Letter
        #expect(renderer.pageSize(at: 2) == PageSize(width: 432, height: 144))
        let colour = try renderer.render(page: 0, size: .longestSide(200))
        #expect(colour.width == 200 && colour.height == 150)
        #expect(colour.pixel(x: 40, y: 75).isClose(to: 255, 0, 0, tolerance: 40) && colour.pixel(x: 160, y: 75).isClose(to: 0, 0, 255, tolerance: 40))
        // The bar: 100…700 × 100…200 of 850×1100 pixels; below it, paper.
        let scan = try renderer.render(page: 1, size: .longestSide(220))
        let scale = Double(scan.width) / 850
        #expect(scan.pixel(x: Int(400 * scale), y: Int(150 * scale)).isClose(to: 0, 0, 0))
        #expect(scan.pixel(x: Int(400 * scale), y: Int(600 * scale)).isClose(to: 255, 255, 255))
        #expect(try renderer.render(page: 2, size: .longestSide(120)).pixel(x: 60, y: 20).isClose(to: 0, 200, 0, tolerance: 40))
    }

    /// A page shown or thumbnailed on its own is drawn without cairo (straight RGBA from
    /// DjVuLibre); a page drawn into a larger picture (printing, index sheets) through a cairo
    /// surface. Both are the same pixels, byte for byte, and opaque.
    @Test func aPageDrawnWithoutCairoIsTheSameAsThroughCairo() throws {
        let renderer = try SampleFiles.renderer("djvu/book.djvu")
        for page in 0..<renderer.pageCount {
            let (width, height) = renderer.pixelSize(page: page, size: .longestSide(160), allowUpscaling: false)
            let direct = try renderer.render(page: page, size: .longestSide(160), allowUpscaling: false)
            let throughCairo = try renderer.surface(page: page, width: width, height: height).rendered()
            #expect(direct.width == width && direct.height == height)
            #expect(direct == throughCairo, "page \(page + 1)")
            #expect(stride(from: 3, to: direct.pixels.count, by: 4).allSatisfy { direct.pixels[$0] == 255 }, "page \(page + 1) opaque")
        }
    }

    @Test func theTextLayerIsTextFindAndCopy() throws {
        let renderer = try SampleFiles.renderer("djvu/book.djvu")
        #expect(try renderer.text(page: 1) == "Quire finds\nCafé déjà vu")
        let found = try #require(try renderer.find("CAFE DEJA", page: 1))
        #expect(found.hasText && found.matches.count == 1)
        // "Café déjà": words at x 100…450 px, y 700…800 px from the bottom, at 0.72 pt a pixel.
        let box = try #require(found.matches.first?.first)
        #expect(abs(box.x - 72) < 1 && abs(box.y - 216) < 1 && abs(box.maxX - 324) < 1 && abs(box.height - 72) < 1, "\(box)")
        #expect(try renderer.find("quire finds", page: 1)?.matches.count == 1)
        let picture = try #require(try renderer.find("Quire", page: 0))
        #expect(!picture.hasText && picture.matches.isEmpty)
        let layout = try #require(try renderer.textLayout(page: 1))
        #expect(layout.characters.count == layout.boxes.count && layout.text(0..<5) == "Quire")
    }

    @Test func anIndirectDocumentReadsItsPageFilesBesideIt() throws {
        let renderer = try SampleFiles.renderer("djvu/indirect/index.djvu")
        #expect(renderer.pageCount == 3)
        #expect(try renderer.render(page: 2, size: .longestSide(120)).pixel(x: 60, y: 20).isClose(to: 0, 200, 0, tolerance: 40))
        #expect(try renderer.text(page: 1)?.hasPrefix("Quire finds") == true)
    }

    @Test func aMissingPageFileCostsThatPage() throws {
        let renderer = try SampleFiles.renderer("djvu/missing/index.djvu")
        #expect(renderer.pageCount == 3)
        #expect {
            _ = try renderer.render(page: 1, size: .longestSide(64))
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.contains("page2.djvu") && error.reason.contains("no such file")
        }
        #expect(try renderer.render(page: 0, size: .longestSide(64)).width == 64)
        #expect(try renderer.render(page: 2, size: .longestSide(64)).width == 64)
    }

    @Test func aTruncatedDocumentIsDamaged() throws {
        let renderer = try SampleFiles.renderer("djvu/truncated.djvu")
        #expect {
            _ = try renderer.render(page: 0, size: .longestSide(64))
        } throws: { ($0 as? DocumentError)?.kind == .damaged }
        #expect {
            _ = try Renderer(file: try SampleFiles.open("notes.txt"), contentType: ContentType(mimeType: "image/vnd.djvu"))
        } throws: { ($0 as? DocumentError)?.reason.hasPrefix("not a readable DjVu document") == true }
    }

    @Test func onlyPlainNamesAreRead() {
        for name in ["page2.djvu", "p 1.djvu", "..x.djvu"] { #expect(DjVuDocument.isPlainName(name), "\(name)") }
        for name in ["", ".", "..", "../page.djvu", "/etc/passwd", "sub/page.djvu"] { #expect(!DjVuDocument.isPlainName(name), "\(name)") }
        #expect(DjVuDocument.folder(of: DocumentPath("/a/b/c.djvu")) == Array("/a/b/".utf8))
        #expect(DjVuDocument.folder(of: DocumentPath("c.djvu")) == Array("./".utf8))
    }
}
