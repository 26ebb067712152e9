import QuireRenderService
import Foundation
import QuireRender
import QuireTestSupport
import QuireTypes
import Testing
@testable import QuireThumbnails

/// Raster thumbnails of pages poppler's cairo backend draws very slowly go through poppler's
/// Splash backend (libpoppler-cpp, via Quire's dlopened shim); everything else stays on cairo.
@Suite struct SplashBackendTests {
    static func open(_ name: String) throws -> InputFile { try InputFile(path: DocumentPath(Samples.path(name))) }

    /// pdftoppm (poppler's own Splash front-end) at exactly `width`×`height`, as RGB bytes (PPM).
    static func pdftoppm(_ name: String, width: Int, height: Int) throws -> [UInt8] {
        let directory = TemporaryDirectory("quire-splash")
        let result = ProcessRunner.run(["/usr/bin/pdftoppm", "-singlefile", "-scale-to-x", "\(width)", "-scale-to-y", "\(height)",
                                        Samples.path(name), directory.file("page")], timeout: 60)
        try #require(result.status == 0, "\(result.standardError)")
        let ppm = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.file("page.ppm"))))
        // "P6\n<w> <h>\n255\n" then RGB.
        var newlines = 0
        guard let start = ppm.firstIndex(where: { byte in
            if byte == 0x0A { newlines += 1 }
            return newlines == 3
        }) else { throw CocoaError(.fileReadCorruptFile) }
        let header = String(decoding: ppm[..<start], as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == " " })
        try #require(header == ["P6", "\(width)", "\(height)", "255"], "\(header)")
        return Array(ppm[(start + 1)...])
    }

    @Test func theProbeSendsOnlyShadingsCairoIsSlowOnToSplash() throws {
        for name in ["shading-function.pdf", "shading-radial.pdf"] {
            #expect(PageBackendProbe.prefersSplash(try Self.open(name)), "\(name)")
        }
        for name in ["document.pdf", "many-glyphs.pdf", "shading-axial.pdf", "shading-mesh.pdf", "huge-image.pdf", "garbage.pdf"] {
            #expect(!PageBackendProbe.prefersSplash(try Self.open(name)), "\(name)")
        }
    }

    /// poppler takes a page-tree kid without /Kids as a page whatever its /Type says; the probe
    /// does too, so such a page with a function shading still goes to Splash (found by
    /// fuzz-thumbnail: "/Type" mutated to "/Tlype" sent it to cairo, which took minutes; the input
    /// is kept in Fuzz/corpus/thumbnail/page-without-type-function-shading).
    @Test func aPageWithoutTypeIsFoundAsPopplerFindsIt() throws {
        let scratch = TemporaryDirectory()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("shading-function.pdf"))))
        let page = Array("/Type /Page ".utf8)
        let range = try #require(bytes.firstRange(of: page))
        bytes.replaceSubrange(range, with: Array("/Tlype /Page".utf8))  // same length: offsets hold
        for (name, content) in [("untyped.pdf", bytes), ("typed.pdf", try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("shading-function.pdf")))))] {
            let path = scratch.file(name)
            try Data(content).write(to: URL(fileURLWithPath: path))
            let file = try InputFile(path: DocumentPath(path))
            #expect(PageBackendProbe.prefersSplash(file), "\(name)")
            #expect(try SplashPDFDocument(file: file).pageCount == 1, "\(name): poppler reads the page")
        }
    }

    /// A damaged file whose function shading qpdf cannot read but poppler draws (a stray token in
    /// the shading dictionary: qpdf warns and drops it) goes to Splash by its plain bytes; a
    /// damaged file with only an axial shading stays on cairo. Found by fuzz-thumbnail: such
    /// inputs (this one, and a lost /Root and a broken trailer, qpdf errors) took cairo over a
    /// minute and 2 GB each; they are kept in Fuzz/corpus/thumbnail, replayed by FuzzCorpusTests.
    @Test func damagedFilesNamingAFunctionShadingGoToSplash() throws {
        let scratch = TemporaryDirectory()
        func variant(_ sample: String, _ from: String, _ to: String) throws -> InputFile {
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path(sample))))
            let range = try #require(bytes.firstRange(of: Array(from.utf8)), "\(sample): \(from)")
            bytes.replaceSubrange(range, with: Array(to.utf8))
            let path = scratch.file("variant-\(sample)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try InputFile(path: DocumentPath(path))
        }
        let strayToken = try variant("shading-function.pdf", "/Function 6 0 R >>", "/Function 6 0 R '>")
        #expect(PageBackendProbe.prefersSplash(strayToken))
        #expect(try SplashPDFDocument(file: strayToken).pageCount == 1, "poppler reads it")
        #expect(!PageBackendProbe.prefersSplash(try variant("shading-axial.pdf", "/ShadingType 2", "/ShadingType 2 /X 1")))
    }

    /// The plain-bytes check: `/ShadingType`, white space, then 1 or 3 as a whole number.
    @Test func shadingTypesNamedInPlainBytes() throws {
        let scratch = TemporaryDirectory()
        let cases: [(String, Bool)] = [
            ("<< /ShadingType 1 /Domain [0 1] >>", true), ("<</ShadingType\n\t3>>", true), ("/ShadingType 3", true),
            ("<< /ShadingType 2 >>", false), ("<< /ShadingType 10 >>", false), ("<< /ShadingType 1.5 >>", false),
            ("<< /ShadingTypes 1 >>", false), ("<< /ShadingType /1 >>", false), ("no shading at all", false),
            ("/ShadingType 2 then /ShadingType 1 ", true),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let path = scratch.file("case-\(index)")
            try Data(("%PDF-1.4\n" + String(repeating: "x", count: index * 100) + text).utf8).write(to: URL(fileURLWithPath: path))
            #expect(PageBackendProbe.namesSplashShading(try InputFile(path: DocumentPath(path))) == expected, "\(text)")
        }
    }

    @Test func theShimIsFoundAndQuireDoesNotLinkIt() throws {
        #expect(SplashPDFDocument.isAvailable, "\(SplashPDFDocument.unavailableReason ?? "")")
        let needed = ProcessRunner.run(["/usr/bin/readelf", "-d", QuireBinary.path], timeout: 30).standardOutputText
        #expect(needed.contains("libgio-2.0"))  // the check reads real entries
        #expect(!needed.contains("libpoppler-cpp") && !needed.contains("QuirePopplerSplash"), "\(needed)")
    }

    @Test func aFunctionShadingIsDrawnQuicklyAndLooksLikePopplersSplash() throws {
        let file = try Self.open("shading-function.pdf")
        let started = Date()
        let thumbnails = try RendererThumbnailSource().renderThumbnails(of: file, type: try ContentType.detect(file), sizes: [256, 128])
        // cairo needs more than 15 s for this page; Splash well under a second (allow a loaded machine).
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(thumbnails.pageCount == 1)
        for size in [256, 128] {
            let png = try #require(thumbnails.pngBySize[size])
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            // IHDR: width and height, big-endian, at bytes 16 and 20; the page is 612×792 pt.
            func be32(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            #expect(be32(20) == size && be32(16) == Int((612.0 * Double(size) / 792).rounded()))
        }

        // The pixels: the same as pdftoppm's, and not blank.
        let image = try SplashPDFDocument(file: file).render(page: 0, size: .longestSide(256))
        #expect(image.width == 198 && image.height == 256)
        let reference = try Self.pdftoppm("shading-function.pdf", width: image.width, height: image.height)
        var difference = 0
        var distinct = Set<[UInt8]>()
        for index in 0..<(image.width * image.height) {
            for channel in 0..<3 {
                difference += abs(Int(image.pixels[index * 4 + channel]) - Int(reference[index * 3 + channel]))
            }
            #expect(image.pixels[index * 4 + 3] == 255)
            distinct.insert(Array(image.pixels[(index * 4)..<(index * 4 + 3)]))
        }
        let mean = Double(difference) / Double(image.width * image.height * 3)
        #expect(mean < 2, "mean difference per channel from pdftoppm: \(mean)")
        #expect(distinct.count > 100, "a smooth shading, not a blank page: \(distinct.count) colours")
        let left = image.pixel(x: 5, y: 128), right = image.pixel(x: 192, y: 128)
        #expect(abs(Int(left.red) - Int(right.red)) + abs(Int(left.green) - Int(right.green)) > 100, "\(left) vs \(right)")
    }

    @Test func splashReportsPasswordsAndDamageAndDrawsWhereCairoDoes() throws {
        // encrypted.pdf needs its password: Splash reports it like cairo does.
        #expect {
            _ = try SplashPDFDocument(file: try Self.open("encrypted.pdf"))
        } throws: { ($0 as? DocumentError)?.kind == .passwordRequired }
        #expect {
            _ = try SplashPDFDocument(file: try Self.open("garbage.pdf"))
        } throws: { ($0 as? DocumentError)?.kind == .damaged }
        // document.pdf page 1: a pure red rectangle at (72, 72), 200 × 100 pt, on an A4 page —
        // the same pixels as the cairo path's test (PDFRenderingTests).
        let document = try SplashPDFDocument(file: try Self.open("document.pdf"))
        #expect(document.pageCount == 3)
        let image = try document.render(page: 0, size: .width(298))
        #expect(image.width == 298 && image.height == Int((841.89 * 298 / 595.28).rounded()))
        let scale = 298 / 595.28
        let inside = image.pixel(x: Int(172 * scale), y: Int(122 * scale))
        let outside = image.pixel(x: Int(172 * scale), y: Int(60 * scale))
        #expect(inside == .init(red: 255, green: 0, blue: 0, alpha: 255), "\(inside)")
        #expect(outside == .init(red: 255, green: 255, blue: 255, alpha: 255), "\(outside)")
    }
}
