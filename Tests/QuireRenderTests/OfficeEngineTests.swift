import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// The office engine with the real LibreOffice (installed by `make test`): samples made by
/// LibreOffice itself (Samples/office.py), compared with LibreOffice's own PDF export of the
/// same sources (`office-*.reference.pdf`).
@Suite(.inProcessOffice) struct OfficeEngineTests {
    @Test func libreOfficeIsInstalled() {
        #expect(OfficeInstallation.isInstalled, "make test installs LibreOffice (\(OfficeInstallation.packageHint))")
    }

    /// The private profile records the installed office's version as its last (so LibreOffice
    /// does not treat each start as the first after an upgrade): the version Quire reads is the
    /// one `soffice --version` prints, and it is in the settings written before the office starts.
    @Test func profileNamesTheInstalledVersion() throws {
        let version = try #require(OfficeKit.productVersion(program: OfficeInstallation.programDirectory))
        let soffice = Process()
        soffice.executableURL = URL(fileURLWithPath: "/usr/bin/soffice")
        soffice.arguments = ["--version"]
        let pipe = Pipe()
        soffice.standardOutput = pipe
        try soffice.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        soffice.waitUntilExit()
        #expect(printed.contains("LibreOffice \(version)."), "\(version) vs \(printed)")
        let settings = OfficeKit.profileSettings(temporaryFiles: "file:///tmp/x", productVersion: version)
        #expect(settings.contains(#"<prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>\#(version)</value>"#))
        #expect(!OfficeKit.profileSettings(temporaryFiles: "file:///tmp/x", productVersion: nil).contains("ooSetupLastVersion"))
    }

    /// Every office format LibreOffice writes, as many pages as LibreOffice's own PDF export:
    /// a 20-page text, a spreadsheet of two sheets (one page each), three slides, a drawing.
    @Test(arguments: [
        ("office-report.odt", "office-report"), ("office-report.docx", "office-report"), ("office-report.doc", "office-report"),
        ("office-report.rtf", "office-report"), ("office-report.dotx", "office-report"),
        ("office-sheet.ods", "office-sheet"), ("office-sheet.xlsx", "office-sheet"), ("office-sheet.xls", "office-sheet"),
        ("office-slides.odp", "office-slides"), ("office-slides.pptx", "office-slides"), ("office-slides.ppt", "office-slides"),
        ("office-drawing.odg", "office-drawing"),
    ])
    func pageCountsMatchLibreOfficesOwnExport(sample: String, reference: String) throws {
        let renderer = try SampleFiles.renderer(sample)
        #expect(renderer.contentType.family == .officeDocument)
        let expected = try PDFDocument(file: SampleFiles.open(reference + ".reference.pdf")).pageCount
        #expect(expected > 0)
        #expect(renderer.pageCount == expected, "\(sample): \(renderer.pageCount) pages, LibreOffice's export has \(expected)")
        #expect(!renderer.isRaster, "laid out, not the embedded preview image")
        #expect(renderer.pdfInfo?.title == "Quarterly Report")
    }

    /// Files LibreOffice did not write (Samples/office-others.py): python-docx over Word's own
    /// template, XlsxWriter. Pages, properties and text come through as their producers wrote them.
    @Test func filesFromOtherProducers() throws {
        let word = try SampleFiles.renderer("other-word.docx")
        #expect(word.contentType.family == .officeDocument && !word.isRaster)
        #expect(word.pageCount == 2, "a heading, a table, a page break and a second page")
        #expect(word.pdfInfo?.title == "Harbour Survey" && word.pdfInfo?.author == "Ada Byron")
        let first = try #require(try word.text(page: 0))
        #expect(first.contains("Harbour Survey") && first.contains("cell 2.3"), "\(first)")
        #expect(try word.text(page: 1)?.contains("Second page: soundings.") == true)

        let excel = try SampleFiles.renderer("other-excel.xlsx")
        #expect(excel.pageCount == 1 && !excel.isRaster)
        let sheet = try #require(try excel.text(page: 0))
        #expect(sheet.contains("North") && sheet.contains("Depth (m)") && sheet.contains("21.75"), "the formula's value: \(sheet)")
    }

    /// Page 1 of the .odt against page 1 of LibreOffice's own export, pixel by pixel at 200 px
    /// wide: the same layout (a few grey levels of antialiasing apart), and not a blank page.
    @Test func firstPagePixelsMatchLibreOffice() throws {
        let ours = try SampleFiles.renderer("office-report.odt").render(page: 0, size: .fit(width: 200, height: 400))
        let theirs = try SampleFiles.renderer("office-report.reference.pdf").render(page: 0, size: .fit(width: 200, height: 400))
        #expect(ours.width == theirs.width && ours.height == theirs.height)
        var dark = 0, differing = 0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let a = ours.pixel(x: x, y: y), b = theirs.pixel(x: x, y: y)
                if Int(a.red) + Int(a.green) + Int(a.blue) < 3 * 160 { dark += 1 }
                if abs(Int(a.red) - Int(b.red)) > 48 || abs(Int(a.green) - Int(b.green)) > 48 { differing += 1 }
            }
        }
        #expect(dark > 300, "page 1 has text on it (\(dark) dark pixels)")
        #expect(differing * 100 < ours.width * ours.height, "\(differing) of \(ours.width * ours.height) pixels differ")
    }

    /// Page 1 first (a viewer's open): the page count and sizes of LibreOffice's layout equal
    /// its export's (of the same file); page 1 painted from the layout matches page 1 of the
    /// export pixel for pixel within antialiasing; later pages wait for complete(), which brings
    /// the export.
    @Test(arguments: ["office-report.docx", "office-slides.pptx", "office-drawing.odg", "other-word.docx"])
    func firstPageFirstMatchesTheExport(sample: String) throws {
        let file = try SampleFiles.open(sample)
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file), firstPageFirst: true)
        let theirs = try SampleFiles.renderer(sample)
        #expect(!theirs.isProvisional)
        #expect(renderer.isProvisional)
        #expect(renderer.pageCount == theirs.pageCount)
        for page in 0..<min(renderer.pageCount, theirs.pageCount) {
            let a = renderer.pageSize(at: page), b = theirs.pageSize(at: page)
            #expect(abs(a.width - b.width) < 1 && abs(a.height - b.height) < 1, "page \(page + 1): \(a) vs \(b)")
        }
        let ours = try renderer.render(page: 0, size: .fit(width: 200, height: 400))
        let exported = try theirs.render(page: 0, size: .fit(width: 200, height: 400))
        #expect(ours.width == exported.width && ours.height == exported.height)
        if let dump = ProcessInfo.processInfo.environment["QUIRE_TEST_DUMP"] {
            try Data(PNGEncoder.encode(try renderer.render(page: 0, size: .fit(width: 800, height: 1600)))).write(to: URL(fileURLWithPath: "\(dump)/\(sample)-tile.png"))
            try Data(PNGEncoder.encode(try theirs.render(page: 0, size: .fit(width: 800, height: 1600)))).write(to: URL(fileURLWithPath: "\(dump)/\(sample)-pdf.png"))
        }
        // The same layout: ink on the same rows (lines of text, shapes) and about as much of it;
        // glyphs are placed a little differently on screen than in the PDF, so not pixel for pixel.
        func inkedRows(_ image: RenderedImage) -> (rows: Set<Int>, ink: Int) {
            var rows = Set<Int>(), ink = 0
            for y in 0..<image.height {
                var row = 0
                for x in 0..<image.width {
                    let p = image.pixel(x: x, y: y)
                    if Int(p.red) + Int(p.green) + Int(p.blue) < 3 * 200 { row += 1 }
                }
                if row > 0 { rows.insert(y) }
                ink += row
            }
            return (rows, ink)
        }
        let a = inkedRows(ours), b = inkedRows(exported)
        #expect(a.ink > 100, "page 1 is drawn (\(a.ink) inked pixels)")
        let shared = a.rows.intersection(b.rows).count, all = a.rows.union(b.rows).count
        #expect(shared * 10 >= all * 9, "inked rows: \(shared) shared of \(all)")
        #expect(abs(a.ink - b.ink) * 4 <= b.ink, "ink \(a.ink) vs \(b.ink)")
        if renderer.pageCount > 1 {
            #expect(throws: DocumentError.self) { try renderer.render(page: 1, size: .longestSide(64)) }
        }
        try renderer.complete()
        if let dump = ProcessInfo.processInfo.environment["QUIRE_TEST_DUMP"] {
            try Data(PNGEncoder.encode(try renderer.render(page: 0, size: .fit(width: 800, height: 1600)))).write(to: URL(fileURLWithPath: "\(dump)/\(sample)-same.png"))
        }
        #expect(!renderer.isProvisional && renderer.pageCount == theirs.pageCount)
        #expect(renderer.pdfInfo?.title == theirs.pdfInfo?.title && renderer.pdfInfo?.title != nil)
        if renderer.pageCount > 1 { _ = try renderer.render(page: 1, size: .longestSide(64)) }
    }

    /// The drawing's red square, where LibreOffice put it (2–12 cm from the top-left corner).
    @Test func drawingIsDrawn() throws {
        let renderer = try SampleFiles.renderer("office-drawing.odg")
        let size = renderer.pageSize(at: 0)
        let image = try renderer.render(page: 0, size: .fit(width: 400, height: 400))
        let scale = Double(image.width) / size.width
        let centre = 7 / 2.54 * 72 * scale
        #expect(image.pixel(x: Int(centre), y: Int(centre)).isClose(to: 255, 0, 0))
        #expect(image.pixel(x: image.width - 5, y: image.height - 5).isClose(to: 255, 255, 255))
    }

    @Test func passwordProtectedDocuments() throws {
        #expect {
            _ = try SampleFiles.renderer("office-password.odt")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .passwordRequired && error.remedy == .password && error.reason.contains("password-protected")
        }
        #expect {
            _ = try SampleFiles.renderer("office-password.odt", password: "wrong")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .passwordRequired && error.reason.contains("not correct")
        }
        let opened = try SampleFiles.renderer("office-password.odt", password: "secret")
        #expect(opened.pageCount == 20)
    }

    @Test(arguments: [
        ("office-truncated.docx", DocumentError.Kind.damaged), ("office-garbage.doc", .damaged),
        ("office-bomb.docx", .limitExceeded), ("bomb.odt", .limitExceeded), ("truncated.odt", .damaged),
        ("office-encrypted.doc", .passwordRequired),
    ])
    func badInputIsRefusedBeforeTheOffice(sample: String, kind: DocumentError.Kind) throws {
        #expect {
            _ = try SampleFiles.renderer(sample)
        } throws: { ($0 as? DocumentError)?.kind == kind }
    }

    /// The page limit bounds what LibreOffice lays out (a huge spreadsheet).
    @Test func pageLimitApplies() throws {
        var limits = RenderLimits.standard
        limits.maximumPages = 5
        #expect {
            _ = try SampleFiles.renderer("office-report.docx", limits: limits)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("20 pages")
        }
    }

    /// The document's Basic macro is bound to its load event and writes a marker file; Quire
    /// opens the document and lays it out without running it.
    @Test func macrosDoNotRun() throws {
        let marker = "/tmp/quire-macro-ran"
        unlink(marker)
        let renderer = try SampleFiles.renderer("office-macro.odt")
        #expect(renderer.pageCount == 1)
        _ = try renderer.render(page: 0, size: .longestSide(64))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Thumbnails use the preview image a file carries (LibreOffice writes one into every
    /// OpenDocument file); other requests lay the pages out.
    @Test func thumbnailsPreferTheEmbeddedPreview() throws {
        let thumbnail = try SampleFiles.renderer("office-report.odt", preferEmbeddedPreview: true)
        #expect(thumbnail.embeddedPreviewName == "Thumbnails/thumbnail.png" && thumbnail.isRaster)
        let pages = try SampleFiles.renderer("office-report.odt")
        #expect(pages.embeddedPreviewName == nil && !pages.isRaster && pages.pageCount == 20)
        // Without a preview image inside, a thumbnail is page 1 laid out.
        let laidOut = try SampleFiles.renderer("office-report.docx", preferEmbeddedPreview: true)
        #expect(laidOut.pageCount == 20 && !laidOut.isRaster)
        // A file LibreOffice cannot import shows the preview image it carries (an empty test
        // container here; some iWork files in the wild).
        let fallback = try SampleFiles.renderer("document.pages")
        #expect(fallback.embeddedPreviewName == "QuickLook/Thumbnail.jpg")
    }

    @Test func legacyAndRTFTypesAreOfficeDocuments() {
        for mime in ["application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint", "application/rtf",
                     "application/vnd.ms-word.document.macroEnabled.12"] {
            #expect(ContentType(mimeType: mime).family == .officeDocument, "\(mime)")
        }
        #expect(ContentType(mimeType: "application/msword").capabilities.print == .byConversion(to: "application/pdf"))
    }
}
