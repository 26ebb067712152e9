import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// The font engine on real fonts: Debian's DejaVu (fonts-dejavu-core) and the collection, WOFF
/// and damaged fonts Samples/fonts.py makes from it.
@Suite struct FontRenderingTests {
    /// Dark pixels (green < 128) in a rectangle of `image`.
    static func ink(_ image: RenderedImage, _ x: Range<Int>, _ y: Range<Int>) -> Int {
        var count = 0
        for row in y { for column in x where image.pixel(x: column, y: row).green < 128 { count += 1 } }
        return count
    }

    @Test func aTrueTypeFontIsTypedAsAFontAndSaysWhatItIs() throws {
        let file = try SampleFiles.open("fonts/DejaVuSans.ttf")
        let type = try ContentType.detect(file)
        #expect(type.family == .font)
        #expect(type.capabilities.preview.isSupported && type.capabilities.thumbnail.isSupported)
        let faces = try FontFace.faces(in: file)
        #expect(faces.count == 1)
        #expect(faces[0].family == "DejaVu Sans")
        #expect(faces[0].fullName == "DejaVu Sans")
        #expect(faces[0].version?.hasPrefix("Version 2.") == true)
        #expect(faces[0].manufacturer == "DejaVu fonts team")
        #expect((faces[0].glyphCount ?? 0) > 5000)
        #expect(faces[0].characterCount > 3000)
        #expect(faces[0].scripts.starts(with: ["Latin", "Greek", "Cyrillic"]))
        #expect(!faces[0].scripts.contains("Han"))
    }

    @Test func aWOFFFontGivesTheSameFactsAsTheFontItWraps() throws {
        let plain = try FontFace.faces(in: SampleFiles.open("fonts/DejaVuSans.ttf"))
        let woff = try FontFace.faces(in: SampleFiles.open("fonts/DejaVuSans.woff"))
        #expect(try ContentType.detect(SampleFiles.open("fonts/DejaVuSans.woff")).mimeType == "font/woff")
        #expect(woff.count == 1)
        // Glyph count, version and maker come from tables inflated from the WOFF.
        #expect(woff[0].glyphCount == plain[0].glyphCount)
        #expect(woff[0].manufacturer == plain[0].manufacturer)
        #expect(woff[0].family == plain[0].family)
    }

    @Test func aCollectionHasAFaceAndASpecimenPagePerFace() throws {
        let file = try SampleFiles.open("fonts/collection.ttc")
        let faces = try FontFace.faces(in: file)
        #expect(faces.map(\.fullName) == ["DejaVu Sans", "DejaVu Sans Bold"])
        #expect(faces[0].glyphCount != faces[1].glyphCount)
        let renderer = try SampleFiles.renderer("fonts/collection.ttc")
        #expect(renderer.pageCount == 2)
        #expect(renderer.pageSize(at: 1) == PageSize(width: 595.28, height: 841.89))
        // The bold face's specimen carries more ink than the book face's.
        let book = try renderer.render(page: 0, size: .width(595))
        let bold = try renderer.render(page: 1, size: .width(595))
        #expect(Self.ink(bold, 0..<595, 140..<bold.height) > Self.ink(book, 0..<595, 140..<book.height) * 11 / 10)
    }

    @Test func theSpecimenIsInkOnPaperFromTheNameToTheLargestSize() throws {
        let image = try SampleFiles.renderer("fonts/DejaVuSans.ttf").render(page: 0, size: .width(595))
        #expect(image.pixel(x: 3, y: 3).isClose(to: 255, 255, 255, tolerance: 0))
        #expect(Self.ink(image, 48..<300, 48..<80) > 200)        // the name
        #expect(Self.ink(image, 48..<500, 120..<220) > 2000)     // alphabet and digits
        #expect(Self.ink(image, 60..<560, 370..<600) > 5000)     // the 36–72 pt samples, one line each
        #expect(Self.ink(image, 0..<595, 620..<image.height) == 0)        // nothing after 72 pt
    }

    @Test func theThumbnailIsAaInTheFaceItself() throws {
        let regular = try SampleFiles.renderer("fonts/DejaVuSans.ttf").renderThumbnail(longestSide: 128)
        let bold = try SampleFiles.renderer("fonts/collection.ttc").renderThumbnail(longestSide: 128)
        #expect(regular.width == 128 && regular.height == 128)
        #expect(Self.ink(regular, 0..<128, 0..<10) == 0)          // centred: margins blank
        let regularInk = Self.ink(regular, 0..<128, 0..<128)
        #expect(regularInk > 800)
        // The collection's thumbnail is its first face (Book): the same picture.
        #expect(abs(Self.ink(bold, 0..<128, 0..<128) - regularInk) < regularInk / 20)
        // A Bold font's "Aa" is heavier.
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let boldFile = try InputFile(path: DocumentPath("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
        let heavy = try Renderer(file: boldFile, contentType: try ContentType.detect(boldFile)).renderThumbnail(longestSide: 128)
        #expect(Self.ink(heavy, 0..<128, 0..<128) > regularInk * 12 / 10)
    }

    @Test func aTruncatedFontIsRefusedWithAReason() throws {
        #expect {
            _ = try SampleFiles.renderer("fonts/truncated.ttf")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.contains("not a readable font")
        }
    }

    @Test func aFontWhoseNameTablePointsOutsideTheFileIsNamedAfterTheFile() throws {
        let faces = try FontFace.faces(in: SampleFiles.open("fonts/broken-name-table.ttf"))
        #expect(faces.count == 1)
        #expect(faces[0].family == "broken-name-table")
        #expect(faces[0].designer == nil)
        // Still drawn: the glyphs are fine.
        let image = try SampleFiles.renderer("fonts/broken-name-table.ttf").render(page: 0, size: .width(300))
        #expect(Self.ink(image, 0..<300, 60..<420) > 1000)
    }

    @Test func aType1FontIsAFontNotAPostScriptProgram() throws {
        let path = "/usr/share/fonts/type1/urw-base35/C059-Bold.t1"
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("fonts-urw-base35 (Ghostscript's fonts) is not installed")
            return
        }
        let file = try InputFile(path: DocumentPath(path))
        let type = try ContentType.detect(file)
        #expect(type.family == .font)
        let faces = try FontFace.faces(in: file)
        #expect(faces.first?.family == "C059")
        #expect(faces.first?.style == "Bold")
        #expect(faces.first?.format == "Type 1")
    }

    /// Widths of the runs of inked columns in a band of rows: one run per glyph drawn apart.
    static func inkRuns(_ image: RenderedImage, _ x: Range<Int>, _ y: Range<Int>) -> [Int] {
        var runs: [Int] = []
        var current = 0
        for column in x {
            if y.contains(where: { image.pixel(x: column, y: $0).green < 128 }) {
                current += 1
            } else if current > 0 {
                runs.append(current)
                current = 0
            }
        }
        if current > 0 { runs.append(current) }
        return runs
    }

    /// Issue 42: Pango shapes with HarfBuzz, which cannot read a Type 1 font, so its specimen
    /// was rows of missing-glyph boxes and its thumbnail blank. Drawn by FreeType through cairo,
    /// the letters are the face's own: the thumbnail has ink where Pango's had none, and the
    /// alphabet's letters have the widths of letters (an "i" narrow, an "m" wide), not one box
    /// width repeated.
    @Test(arguments: ["/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1",
                      "/usr/share/fonts/X11/Type1/NimbusSans-Regular.pfb"])
    func aType1FontIsDrawnWithItsOwnGlyphs(path: String) throws {
        // fonts-urw-base35 (in make deps) installs both forms.
        #expect(FileManager.default.fileExists(atPath: path))
        let file = try InputFile(path: DocumentPath(path))
        let type = try ContentType.detect(file)
        #expect(type.family == .font)
        let renderer = try Renderer(file: file, contentType: type)
        let thumbnail = try renderer.renderThumbnail(longestSide: 128)
        let thumbnailInk = Self.ink(thumbnail, 0..<128, 0..<128)
        #expect(thumbnailInk > 800)
        #expect(Self.ink(thumbnail, 0..<128, 0..<10) == 0)            // centred: margins blank
        let pangoOnly = try #require(try FontSource(file: file, limits: RenderLimits(), type1WithFreeType: false)
            .thumbnail(longestSide: 128)).rendered()
        #expect(Self.ink(pangoOnly, 0..<128, 0..<128) < thumbnailInk / 4)

        let page = try renderer.render(page: 0, size: .width(595))
        #expect(Self.ink(page, 48..<500, 120..<220) > 2000)           // alphabet and digits
        #expect(Self.ink(page, 60..<560, 370..<600) > 5000)           // the large samples
        // The lower-case alphabet (the first line under the name): 26 letters of varied widths.
        let runs = Self.inkRuns(page, 40..<560, 118..<140)
        #expect(runs.count >= 24, "\(runs)")
        let widths = runs.sorted()
        #expect((widths.last ?? 0) >= 3 * max(widths.first ?? 1, 1), "\(runs)")
    }

    @Test func theTablesReaderAnswersNothingForBytesThatAreNoFont() {
        #expect(SFNTTables.faces(in: []).isEmpty)
        #expect(SFNTTables.faces(in: Array("ttcf".utf8) + [0, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]).isEmpty)
        // A directory that claims 3 tables and stops.
        #expect(SFNTTables.faces(in: [0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0]).isEmpty)
        #expect(SFNTTables.faces(in: Array("wOFF".utf8) + Array(repeating: 0xFF, count: 60)).isEmpty)
    }
}
