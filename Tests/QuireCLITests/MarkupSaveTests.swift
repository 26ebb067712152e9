import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import Testing

/// Annotations saved through the render worker (issue 36): the worker adds them with poppler and
/// answers with the incremental update, ``DocumentUpdateWriter`` puts it in place; an
/// independent reader (pypdf) finds the annotation dictionaries with their appearance streams,
/// QuadPoints, colours and text, pdftoppm draws them, a signature stays valid, and a revert gives back the
/// original bytes.
@Suite("Markup saved through the worker")
final class MarkupSaveTests {
    let directory = TemporaryDirectory("quire-markup")

    /// "Quire sample, page" on page 1 of document.pdf, in points from the top left (pdftotext -bbox).
    static let words = PageAnnotation.Box(x: 72, y: 217.7, width: 263.4, height: 27.9)

    func copy(_ sample: String, to name: String, mode: Int = 0o644) throws -> String {
        let path = directory.file(name)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: Samples.path(sample), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Saves `changes` to `path` in place through a worker; the update the worker made.
    @discardableResult
    func save(_ path: String, _ changes: DocumentChanges) throws -> PDFUpdate {
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let original = try InputFile(path: DocumentPath(path))
        let update = try client.saveChanges(DocumentRequest(path: DocumentPath(path)), changes)
        try DocumentUpdateWriter.write(update, original: original, to: nil)
        return update
    }

    /// Page 1's annotations as pypdf reads them: subtype, whether it has a normal appearance
    /// stream, its QuadPoints count, its colour and contents.
    func annotations(_ path: String) -> [[String: Any]] {
        let script = """
            import json, sys, pypdf
            page = pypdf.PdfReader(sys.argv[1]).pages[0]
            out = []
            annots = page.get('/Annots')
            for ref in (annots.get_object() if annots is not None else []):
                a = ref.get_object()
                ap = a.get('/AP')
                out.append({'subtype': str(a['/Subtype']), 'appearance': bool(ap and '/N' in ap.get_object()),
                            'quads': len(a.get('/QuadPoints') or []), 'colour': [float(c) for c in (a.get('/C') or [])],
                            'contents': str(a.get('/Contents') or ''), 'rect': [float(v) for v in a['/Rect']]})
            print(json.dumps(out))
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path], timeout: 60)
        #expect(result.status == 0, "pypdf: \(result.standardError)")
        return (try? JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]]) ?? []
    }

    /// Pixels of page 1 (72 dpi RGB, pdftoppm) inside a box (points from the top left) that
    /// `test` accepts.
    func pixels(_ path: String, in box: PageAnnotation.Box, where test: (UInt8, UInt8, UInt8) -> Bool) throws -> Int {
        let page = try #require(PDFPageRaster(path, in: directory.path), "pdftoppm drew \(path)")
        return page.count(x: Int(box.x), y: Int(box.y), width: Int(box.width), height: Int(box.height), where: test)
    }

    static func yellow(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 200 && g > 180 && b < 120 }

    @Test func everyKindIsSavedAsAStandardAnnotationThatOtherReadersReadAndPixelsShow() throws {
        let path = try copy("document.pdf", to: "marked.pdf", mode: 0o604)
        let original = try bytes(path)
        let before = try pixels(path, in: Self.words, where: Self.yellow)
        let blue = PageAnnotation.Colour(red: 0, green: 0, blue: 0.9)
        let changes = DocumentChanges(annotations: [
            PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words]),
            PageAnnotation(kind: .underline, page: 0, boxes: [Self.words], colour: blue),
            PageAnnotation(kind: .strikeOut, page: 0, boxes: [Self.words], colour: .red),
            PageAnnotation(kind: .note, page: 0, boxes: [.init(x: 500, y: 40, width: 24, height: 24)], text: "Check this page"),
            PageAnnotation(kind: .square, page: 0, boxes: [.init(x: 60, y: 400, width: 120, height: 60)], colour: blue),
            PageAnnotation(kind: .circle, page: 0, boxes: [.init(x: 220, y: 400, width: 120, height: 60)], colour: blue),
            PageAnnotation(kind: .line, page: 0, boxes: [.init(x: 60, y: 500, width: 300, height: 40)], colour: .red),
        ])
        let update = try save(path, changes)
        guard case .incremental(let size, let appended) = update else {
            Issue.record("not an incremental update")
            return
        }
        #expect(size == Int64(original.count) && appended.count < 16 << 10, "\(appended.count) bytes appended")
        let saved = try bytes(path)
        #expect(Array(saved.prefix(original.count)) == original, "the original bytes stay first and unchanged")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o604)
        let found = annotations(path)
        #expect(found.map { $0["subtype"] as? String } == ["/Highlight", "/Underline", "/StrikeOut", "/Text", "/Square", "/Circle", "/Line"],
                "\(found)")
        try #require(found.count == 7)
        #expect(found.allSatisfy { $0["appearance"] as? Bool == true }, "each has an appearance stream: \(found)")
        #expect(found.prefix(3).allSatisfy { $0["quads"] as? Int == 8 }, "one quadrilateral each (8 numbers)")
        #expect(found[3]["contents"] as? String == "Check this page")
        #expect(found[4]["colour"] as? [Double] == [0, 0, 0.9] || (found[4]["colour"] as? [Double]).map { abs($0[2] - 0.9) < 0.01 } == true)
        // The highlight's rectangle covers the words, in PDF space (the A4 page is 841.89 high).
        let rect = try #require(found[0]["rect"] as? [Double])
        #expect(abs(rect[0] - 72) < 1 && abs(rect[3] - (841.89 - 217.7)) < 1 && abs(rect[1] - (841.89 - 245.6)) < 1, "\(rect)")
        let after = try pixels(path, in: Self.words, where: Self.yellow)
        #expect(before == 0 && after > 1000, "the highlight is drawn: \(before) → \(after) yellow pixels")
        let square = try pixels(path, in: .init(x: 58, y: 398, width: 124, height: 64)) { r, g, b in b > 150 && r < 100 && g < 100 }
        #expect(square > 100, "the square's blue border is drawn: \(square)")
    }

    /// Draw (ink) and Arrow, saved: pypdf finds an `/Ink` whose `/InkList` holds the stroke's
    /// points and an arrow's `/Line` with `/LE [/None /OpenArrow]`, each with its `/BS` width and
    /// an appearance; pdftoppm draws the stroke where it was drawn and nowhere else — on a page
    /// as it is and on a page shown turned (`/Rotate 90`: the stroke's place is the page as
    /// shown, as the window gives it).
    @Test(arguments: ["document.pdf", "find-rotated.pdf"])
    func inkAndArrowsAreSavedWhereTheyWereDrawn(sample: String) throws {
        let path = try copy(sample, to: "drawn-\(sample)")
        let original = try bytes(path)
        func isBlue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 150 && r < 100 && g < 100 }
        func isRed(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 150 && g < 100 && b < 100 }
        let before = try #require(PDFPageRaster(path, in: directory.path), "pdftoppm drew \(path)")
        let blue = PageAnnotation.Colour(red: 0, green: 0, blue: 0.9)
        // A wave across the page as shown (both pages are at least 595 points wide when shown),
        // a point every 5 points as a pointer gives them, 3 points wide; an arrow below it.
        let zigzag = stride(from: 100.0, through: 400, by: 5).map { x in
            PageAnnotation.Point(x: x, y: 165 + 15 * sin(x / 30))
        }
        try save(path, DocumentChanges(annotations: [
            PageAnnotation(kind: .ink, page: 0, boxes: [], colour: blue, strokes: [zigzag], lineWidth: 3),
            PageAnnotation(kind: .arrow, page: 0, boxes: [.init(x: 100, y: 300, width: 300, height: 0)], colour: .red, lineWidth: 2),
        ]))
        #expect(Array(try bytes(path).prefix(original.count)) == original, "the original bytes stay first and unchanged")

        let script = """
            import json, sys, pypdf
            page = pypdf.PdfReader(sys.argv[1]).pages[0]
            out = []
            for ref in page['/Annots']:
                a = ref.get_object()
                out.append({'subtype': str(a['/Subtype']), 'appearance': bool(a.get('/AP') and '/N' in a['/AP']),
                            'ink': [len(p) for p in a.get('/InkList', [])], 'ending': [str(e) for e in a.get('/LE', [])],
                            'width': float(a['/BS']['/W']) if '/BS' in a else None})
            print(json.dumps(out))
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path], timeout: 60)
        let found = (try? JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]]) ?? []
        try #require(found.count == 2, "pypdf: \(result.standardError) \(found)")
        #expect(found[0]["subtype"] as? String == "/Ink" && found[0]["ink"] as? [Int] == [2 * zigzag.count], "\(found[0])")
        #expect(found[0]["width"] as? Double == 3 && found[0]["appearance"] as? Bool == true, "\(found[0])")
        #expect(found[1]["subtype"] as? String == "/Line" && found[1]["ending"] as? [String] == ["/None", "/OpenArrow"], "\(found[1])")
        #expect(found[1]["width"] as? Double == 2 && found[1]["appearance"] as? Bool == true, "\(found[1])")

        // The page as pdftoppm shows it (turned as its /Rotate says), against the page before.
        let page = try #require(PDFPageRaster(path, in: directory.path), "pdftoppm drew \(path)")
        #expect(page.width > 500 && page.height > 500 && page.width == before.width, "\(page.width)×\(page.height)")
        let onStroke = page.count(x: 95, y: 145, width: 310, height: 40, where: isBlue) - before.count(x: 95, y: 145, width: 310, height: 40, where: isBlue)
        let all = page.count(x: 0, y: 0, width: page.width, height: page.height, where: isBlue)
            - before.count(x: 0, y: 0, width: before.width, height: before.height, where: isBlue)
        #expect(onStroke > 700 && all == onStroke, "the wave's blue: \(onStroke) where it was drawn, \(all - onStroke) elsewhere")
        // The stroke passes through the points drawn (within its width; smoothing cuts no corner of a wave).
        for point in zigzag where Int(point.x) % 20 == 0 {
            #expect(page.count(x: Int(point.x) - 3, y: Int(point.y) - 3, width: 7, height: 7, where: isBlue) > 0, "near \(point)")
        }
        let arrow = page.count(x: 95, y: 285, width: 310, height: 30, where: isRed)
        let arrowhead = page.count(x: 385, y: 290, width: 14, height: 20, where: isRed)
        #expect(arrow > 300 && arrowhead > page.count(x: 300, y: 290, width: 14, height: 20, where: isRed),
                "the arrow's red: \(arrow), its head wider than its shaft: \(arrowhead)")
    }

    /// Text (a text box), saved: pypdf finds a `/FreeText` with its text, its `/DA` (Helvetica at
    /// the size chosen, the colour) and an appearance, and no `/C` (a reader would fill the box
    /// with it); pdftoppm draws the text inside the box as the window placed it, reading upright
    /// on a page shown turned too — nothing of it outside the box.
    @Test(arguments: ["document.pdf", "find-rotated.pdf"])
    func aTextBoxIsSavedAsFreeTextAndDrawnUprightInItsBox(sample: String) throws {
        let path = try copy(sample, to: "text-\(sample)")
        let original = try bytes(path)
        func isRed(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 150 && g < 110 && b < 110 }
        let before = try #require(PDFPageRaster(path, in: directory.path), "pdftoppm drew \(path)")
        let text = "Quire wrote this box, (with parentheses) and a café"
        let layout = try #require(FreeTextLayout(text: text, fontSize: 18, maximumWidth: 240))
        #expect(layout.lines == ["Quire wrote this box, (with", "parentheses) and a café"], "wrapped at 240 points: \(layout.lines)")
        let box = PageAnnotation.Box(x: 100, y: 420, width: layout.width, height: layout.height)
        try save(path, DocumentChanges(annotations: [
            PageAnnotation(kind: .freeText, page: 0, boxes: [box], colour: .red, text: text, fontSize: 18),
        ]))
        #expect(Array(try bytes(path).prefix(original.count)) == original, "the original bytes stay first and unchanged")
        let script = """
            import json, sys, pypdf
            a = pypdf.PdfReader(sys.argv[1]).pages[0]['/Annots'][0].get_object()
            print(json.dumps({'subtype': str(a['/Subtype']), 'contents': str(a.get('/Contents')), 'da': str(a.get('/DA')),
                              'colour': '/C' in a, 'appearance': bool(a.get('/AP') and '/N' in a['/AP'])}))
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path], timeout: 60)
        let found = (try? JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [String: Any]) ?? [:]
        #expect(found["subtype"] as? String == "/FreeText" && found["contents"] as? String == text, "pypdf: \(result.standardError) \(found)")
        #expect(found["da"] as? String == "/Helv 18 Tf 0.85 0.1 0.1 rg" && found["colour"] as? Bool == false, "\(found)")
        #expect(found["appearance"] as? Bool == true, "\(found)")

        let page = try #require(PDFPageRaster(path, in: directory.path), "pdftoppm drew \(path)")
        let inside = page.count(x: Int(box.x), y: Int(box.y), width: Int(box.width) + 1, height: Int(box.height) + 1, where: isRed)
        let all = page.count(x: 0, y: 0, width: page.width, height: page.height, where: isRed)
            - before.count(x: 0, y: 0, width: before.width, height: before.height, where: isRed)
        #expect(inside > 500 && all == inside, "the text's red: \(inside) inside its box, \(all - inside) elsewhere")
        // Two lines, top to bottom: red in each line's band.
        for index in 0..<2 {
            let top = Int(box.y + layout.baseline(index) - 13)
            #expect(page.count(x: Int(box.x), y: top, width: Int(box.width), height: 15, where: isRed) > 100, "line \(index + 1)")
        }
    }

    /// What a text box cannot be: a letter outside Windows-1252 (Helvetica, unembedded, has no
    /// other), no text, a size outside 4…144 points — refused in one line, nothing saved.
    @Test func aTextBoxThatCannotBeSetIsRefusedInOneLine() throws {
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(Samples.path("document.pdf")))
        let box = PageAnnotation.Box(x: 100, y: 420, width: 200, height: 30)
        for (text, size, reason) in [("Καλημέρα", 12.0, "cannot show \"Κ\""), ("", 12, "needs its text"), ("Hello", 200, "not between 4 and 144")] {
            #expect {
                try client.saveChanges(document, DocumentChanges(annotations: [
                    PageAnnotation(kind: .freeText, page: 0, boxes: [box], text: text, fontSize: size),
                ]))
            } throws: { error in
                let message = (error as? RenderProblem)?.message ?? "\(error)"
                return message.contains(reason) && !message.contains("\n")
            }
        }
    }

    /// Annotations already in a PDF: listed with the page's text (kind, place on the page as
    /// shown, text) where they were placed, on a page as it is and one shown turned; removed by
    /// their place in the list — pypdf then finds the others only, pdftoppm no longer draws it,
    /// the original bytes stay first; a removal naming another kind, a place that is not there
    /// or a link is refused in one line.
    @Test(arguments: ["document.pdf", "find-rotated.pdf"])
    func existingAnnotationsAreListedWhereTheyAreAndRemoved(sample: String) throws {
        let path = try copy(sample, to: "listed-\(sample)")
        let blue = PageAnnotation.Colour(red: 0, green: 0, blue: 0.9)
        let square = PageAnnotation.Box(x: 60, y: 400, width: 120, height: 60)
        let note = PageAnnotation.Box(x: 300, y: 100, width: 24, height: 24)
        try save(path, DocumentChanges(annotations: [
            PageAnnotation(kind: .square, page: 0, boxes: [square], colour: blue, lineWidth: 2),
            PageAnnotation(kind: .note, page: 0, boxes: [note], text: "Look here"),
        ]))
        let annotated = try bytes(path)
        func isBlue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 150 && r < 100 && g < 100 }
        let drawn = try pixels(path, in: .init(x: 56, y: 396, width: 128, height: 68), where: isBlue)
        #expect(drawn > 100, "the square is drawn before: \(drawn)")

        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(path))
        let listed = try client.pageText(PageRequest(document: document, page: 0, width: 1, height: 1)).annotations
        let kinds = listed.map(\.kind), removable = listed.map(\.isRemovable)
        #expect(kinds.suffix(2) == ["Rectangle", "Note"] && removable.suffix(2) == [true, true], "\(listed)")
        let rectangle = try #require(listed.first { $0.kind == "Rectangle" })
        #expect(abs(rectangle.box.x - square.x) < 1.5 && abs(rectangle.box.y - square.y) < 1.5
                && abs(rectangle.box.width - square.width) < 1.5 && abs(rectangle.box.height - square.height) < 1.5,
                "listed where it was placed: \(rectangle.box) vs \(square)")
        #expect(listed.first { $0.kind == "Note" }?.text == "Look here")

        // Wrong kind, no such place: refused, nothing saved.
        for (removal, reason) in [(AnnotationRemoval(page: 0, index: rectangle.index, kind: "Highlight"), "not a Highlight"),
                                  (AnnotationRemoval(page: 0, index: 40, kind: "Rectangle"), "has no annotation 41")] {
            #expect {
                try client.saveChanges(document, DocumentChanges(removals: [removal]))
            } throws: { error in
                let message = (error as? RenderProblem)?.message ?? "\(error)"
                return message.contains(reason) && !message.contains("\n")
            }
        }
        #expect(try bytes(path) == annotated)
        // A form field is not Markup's to remove (nor to move).
        let form = DocumentRequest(path: DocumentPath(Samples.path("forms/form.pdf")))
        let field = try #require(try client.pageText(PageRequest(document: form, page: 0, width: 1, height: 1)).annotations.first)
        #expect(field.kind == "Form Field" && !field.isRemovable && !field.isMovable && field.isSelectable, "\(field)")
        #expect {
            try client.saveChanges(form, DocumentChanges(removals: [.init(page: 0, index: field.index, kind: field.kind)]))
        } throws: { error in (error as? RenderProblem)?.message.contains("a Form Field cannot be removed") == true }
        #expect {
            try client.saveChanges(form, DocumentChanges(moves: [AnnotationMove(page: 0, index: field.index, kind: field.kind, dx: 5, dy: 5)]))
        } throws: { error in (error as? RenderProblem)?.message.contains("a Form Field cannot be moved") == true }

        try save(path, DocumentChanges(removals: [.init(page: 0, index: rectangle.index, kind: "Rectangle")]))
        #expect(Array(try bytes(path).prefix(annotated.count)) == annotated, "an update after the last")
        let left = annotations(path).map { $0["subtype"] as? String }
        #expect(!left.contains("/Square") && left.contains("/Text"), "\(left)")
        let after = try pixels(path, in: .init(x: 56, y: 396, width: 128, height: 68), where: isBlue)
        #expect(after == 0, "the square is no longer drawn: \(after)")
    }

    /// Annotations already in a PDF moved by (dx, dy) on the page as shown: listed again at
    /// their new places, drawn there by pdftoppm and no longer where they were — a rectangle and
    /// a drawing (its strokes move with it), on a page as it is and one shown turned; a
    /// highlight is not moved (it belongs to its words), nor one named as another kind.
    @Test(arguments: ["document.pdf", "find-rotated.pdf"])
    func existingAnnotationsMoveWithEverythingThatPlacesThem(sample: String) throws {
        let path = try copy(sample, to: "moved-\(sample)")
        let oldStroke = PageAnnotation.Box(x: 95, y: 145, width: 110, height: 40)
        let redBefore = try pixels(path, in: oldStroke) { r, g, b in r > 150 && g < 100 && b < 100 }
        let blue = PageAnnotation.Colour(red: 0, green: 0, blue: 0.9)
        let square = PageAnnotation.Box(x: 60, y: 400, width: 120, height: 60)
        let wave = stride(from: 100.0, through: 200, by: 5).map { PageAnnotation.Point(x: $0, y: 165 + 10 * sin($0 / 20)) }
        try save(path, DocumentChanges(annotations: [
            PageAnnotation(kind: .square, page: 0, boxes: [square], colour: blue, lineWidth: 2),
            PageAnnotation(kind: .ink, page: 0, boxes: [], colour: .red, strokes: [wave], lineWidth: 3),
            PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words]),
        ]))
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(path))
        // A worker of its own each time: one keeps the file it opened.
        func listed() throws -> [ExistingAnnotation] {
            let reader = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
            defer { reader.stop() }
            return try reader.pageText(PageRequest(document: document, page: 0, width: 1, height: 1)).annotations
        }
        let before = try listed()
        let rectangle = try #require(before.first { $0.kind == "Rectangle" })
        let drawing = try #require(before.first { $0.kind == "Drawing" })
        let highlight = try #require(before.first { $0.kind == "Highlight" })
        #expect(rectangle.isMovable && drawing.isMovable && !highlight.isMovable)
        func isBlue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 150 && r < 100 && g < 100 }
        func isRed(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 150 && g < 100 && b < 100 }
        #expect(try pixels(path, in: .init(x: 56, y: 396, width: 128, height: 68), where: isBlue) > 100)

        for (move, reason) in [(AnnotationMove(page: 0, index: highlight.index, kind: "Highlight", dx: 10, dy: 10), "cannot be moved"),
                               (AnnotationMove(page: 0, index: rectangle.index, kind: "Oval", dx: 10, dy: 10), "not a Oval")] {
            #expect {
                try client.saveChanges(document, DocumentChanges(moves: [move]))
            } throws: { error in
                let message = (error as? RenderProblem)?.message ?? "\(error)"
                return message.contains(reason) && !message.contains("\n")
            }
        }

        let saved = try bytes(path)
        try save(path, DocumentChanges(moves: [
            AnnotationMove(page: 0, index: rectangle.index, kind: "Rectangle", dx: 200, dy: 100),
            AnnotationMove(page: 0, index: drawing.index, kind: "Drawing", dx: 0, dy: 300),
        ]))
        #expect(Array(try bytes(path).prefix(saved.count)) == saved, "an update after the last")
        let after = try listed()
        for (was, moved) in [(rectangle, (200.0, 100.0)), (drawing, (0.0, 300.0))] {
            let now = try #require(after.first { $0.index == was.index && $0.kind == was.kind })
            #expect(abs(now.box.x - was.box.x - moved.0) < 1 && abs(now.box.y - was.box.y - moved.1) < 1
                    && abs(now.box.width - was.box.width) < 1, "\(was.kind): \(was.box) → \(now.box)")
        }
        #expect(try pixels(path, in: .init(x: 56, y: 396, width: 128, height: 68), where: isBlue) == 0, "not where it was")
        #expect(try pixels(path, in: .init(x: 256, y: 496, width: 128, height: 68), where: isBlue) > 100, "where it was put")
        #expect(try pixels(path, in: oldStroke, where: isRed) == redBefore, "the drawing is not where it was (the page's own red: \(redBefore))")
        // The strokes moved with it (the appearance is drawn from them and its rectangle).
        for point in wave where Int(point.x) % 25 == 0 {
            #expect(try pixels(path, in: .init(x: point.x - 3, y: point.y + 300 - 3, width: 7, height: 7), where: isRed) > 0, "near \(point)")
        }
    }

    /// Drawings already in a PDF resized from their top left corner as shown (Markup's corner
    /// handle): listed again with the top left where it was and the new size, drawn by pdftoppm
    /// over the new box (the appearance stretches with the rectangle, the strokes are placed
    /// anew), on a page as it is and one shown turned; a text box is not resized.
    @Test(arguments: ["document.pdf", "find-rotated.pdf"])
    func existingDrawingsResizeFromTheirTopLeftCorner(sample: String) throws {
        let path = try copy(sample, to: "resized-\(sample)")
        let blue = PageAnnotation.Colour(red: 0, green: 0, blue: 0.9)
        let square = PageAnnotation.Box(x: 60, y: 400, width: 120, height: 60)
        let stroke = [PageAnnotation.Point(x: 400, y: 150), PageAnnotation.Point(x: 450, y: 175)]
        try save(path, DocumentChanges(annotations: [
            PageAnnotation(kind: .square, page: 0, boxes: [square], colour: blue, lineWidth: 2),
            PageAnnotation(kind: .ink, page: 0, boxes: [], colour: .red, strokes: [stroke], lineWidth: 3),
            PageAnnotation(kind: .freeText, page: 0, boxes: [.init(x: 300, y: 100, width: 100, height: 30)], text: "Hello"),
        ]))
        func listed() throws -> [ExistingAnnotation] {
            let reader = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
            defer { reader.stop() }
            return try reader.pageText(PageRequest(document: DocumentRequest(path: DocumentPath(path)), page: 0, width: 1, height: 1)).annotations
        }
        let before = try listed()
        let rectangle = try #require(before.first { $0.kind == "Rectangle" })
        let drawing = try #require(before.first { $0.kind == "Drawing" })
        let textBox = try #require(before.first { $0.kind == "Text Box" })
        #expect(rectangle.isResizable && drawing.isResizable && !textBox.isResizable && textBox.isMovable)
        func isBlue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 150 && r < 100 && g < 100 }
        func isRed(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 150 && g < 100 && b < 100 }
        // Its right edge, before: nothing blue past x 184.
        #expect(try pixels(path, in: .init(x: 190, y: 400, width: 170, height: 90), where: isBlue) == 0)

        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        #expect {
            try client.saveChanges(DocumentRequest(path: DocumentPath(path)), DocumentChanges(moves: [
                AnnotationMove(page: 0, index: textBox.index, kind: "Text Box", dx: 0, dy: 0, scaleX: 2, scaleY: 1)]))
        } throws: { error in
            let message = (error as? RenderProblem)?.message ?? "\(error)"
            return message.contains("cannot be resized") && !message.contains("\n")
        }

        try save(path, DocumentChanges(moves: [
            AnnotationMove(page: 0, index: rectangle.index, kind: "Rectangle", dx: 0, dy: 0, scaleX: 2.5, scaleY: 1.5),
            AnnotationMove(page: 0, index: drawing.index, kind: "Drawing", dx: 0, dy: 0, scaleX: 2, scaleY: 2),
        ]))
        let after = try listed()
        for (was, scale) in [(rectangle, (2.5, 1.5)), (drawing, (2.0, 2.0))] {
            let now = try #require(after.first { $0.index == was.index && $0.kind == was.kind })
            #expect(abs(now.box.x - was.box.x) < 1 && abs(now.box.y - was.box.y) < 1, "the top left stays: \(was.box) → \(now.box)")
            #expect(abs(now.box.width - was.box.width * scale.0) < 1 && abs(now.box.height - was.box.height * scale.1) < 1,
                    "\(was.kind) scaled \(scale): \(was.box) → \(now.box)")
        }
        // The rectangle's border now runs along x ≈ 60 + 2.5 × 120 and y ≈ 400 + 1.5 × 60.
        #expect(try pixels(path, in: .init(x: 350, y: 410, width: 16, height: 70), where: isBlue) > 50, "its new right edge")
        #expect(try pixels(path, in: .init(x: 70, y: 483, width: 270, height: 12), where: isBlue) > 50, "its new bottom edge")
        #expect(try pixels(path, in: .init(x: 170, y: 410, width: 16, height: 40), where: isBlue) == 0, "not its old right edge")
        // The stroke from (400, 150) now ends near (400 + 2 × 50, 150 + 2 × 25), past where it ended.
        #expect(try pixels(path, in: .init(x: 490, y: 190, width: 20, height: 20), where: isRed) > 0, "the stroke's new end")
    }

    /// A PDF encrypted with an owner password only (it opens without one and allows notes, as
    /// many statements and forms do): a highlight is saved; a drawing, a text box, an arrow or
    /// a wide line — which only Quire's own update completes, and whose new objects would have
    /// to be encrypted — are refused in one line, rather than saved as the stand-in squares
    /// poppler was given.
    @Test func anEncryptedPDFTakesHighlightsAndRefusesWhatItCannotHold() throws {
        let path = directory.file("owner-only.pdf")
        let made = ProcessRunner.run(["/usr/bin/qpdf", "--encrypt", "", "owner", "256", "--", Samples.path("document.pdf"), path], timeout: 60)
        try #require(made.status == 0, "\(made.standardError)")
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(path))
        let box = PageAnnotation.Box(x: 100, y: 400, width: 100, height: 50)
        for (annotation, reason) in [
            (PageAnnotation(kind: .ink, page: 0, boxes: [], strokes: [[.init(x: 100, y: 400), .init(x: 150, y: 420)]]), "a drawing cannot"),
            (PageAnnotation(kind: .freeText, page: 0, boxes: [box], text: "Hello"), "a text box cannot"),
            (PageAnnotation(kind: .arrow, page: 0, boxes: [box]), "an arrow cannot"),
            (PageAnnotation(kind: .square, page: 0, boxes: [box], lineWidth: 2), "a line width other than Thin"),
        ] {
            #expect {
                try client.saveChanges(document, DocumentChanges(annotations: [annotation]))
            } throws: { error in
                let message = (error as? RenderProblem)?.message ?? "\(error)"
                return message.contains(reason) && message.contains("encrypted") && !message.contains("\n")
            }
        }
        let original = try bytes(path)
        try save(path, DocumentChanges(annotations: [PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words])]))
        #expect(try bytes(path).count > original.count && Array(try bytes(path).prefix(original.count)) == original)
    }

    @Test func aRevertGivesBackTheOriginalBytes() throws {
        let path = try copy("document.pdf", to: "revert.pdf", mode: 0o640)
        let original = try bytes(path)
        let first = try save(path, DocumentChanges(annotations: [PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words])]))
        try save(path, DocumentChanges(annotations: [PageAnnotation(kind: .square, page: 1, boxes: [.init(x: 10, y: 10, width: 50, height: 50)])]))
        #expect(try bytes(path).count > original.count)
        guard case .incremental(let size, _) = first else {
            Issue.record("not an incremental update")
            return
        }
        try DocumentUpdateWriter.revert(DocumentPath(path), toOriginalSize: size)
        #expect(try bytes(path) == original, "byte for byte")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        // A size that does not end a PDF is refused, and nothing is written.
        #expect(throws: OutputError.self) { try DocumentUpdateWriter.revert(DocumentPath(path), toOriginalSize: 100) }
        #expect(try bytes(path) == original)
    }

    @Test func aFileChangedSinceItWasReadIsNotOverwritten() throws {
        let path = try copy("document.pdf", to: "changed.pdf")
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let original = try InputFile(path: DocumentPath(path))
        let update = try client.saveChanges(DocumentRequest(path: DocumentPath(path)),
                                            DocumentChanges(annotations: [PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words])]))
        // Another program writes the file meanwhile.
        let other = Array("%PDF-1.4 written by someone else\n".utf8)
        try Data(other).write(to: URL(fileURLWithPath: path))
        #expect(throws: OutputError.self) { try DocumentUpdateWriter.write(update, original: original, to: nil) }
        #expect(try bytes(path) == other, "their bytes are kept")
    }

    @Test func aSignatureStaysValidAfterAHighlight() throws {
        let signed = try SignedPDF.make(from: Samples.path("document.pdf"), in: directory)
        let original = try bytes(signed)
        try save(signed, DocumentChanges(annotations: [PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words])]))
        #expect(Array(try bytes(signed).prefix(original.count)) == original)
        let check = ProcessRunner.run(["/usr/bin/pdfsig", signed], timeout: 60)
        #expect(check.standardOutputText.contains("Signature Validation: Signature is Valid."), "\(check.standardOutputText)")
        #expect(annotations(signed).contains { $0["subtype"] as? String == "/Highlight" })
    }

    @Test func aPDFThatForbidsAnnotatingOrAPageThatIsNotThereIsRefused() throws {
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let locked = DocumentRequest(path: DocumentPath(Samples.path("forms/form-locked.pdf")))
        #expect {
            try client.saveChanges(locked, DocumentChanges(annotations: [PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words])]))
        } throws: { error in
            (error as? RenderProblem)?.message.contains("do not allow adding annotations") == true
        }
        let document = DocumentRequest(path: DocumentPath(Samples.path("document.pdf")))
        #expect {
            try client.saveChanges(document, DocumentChanges(annotations: [PageAnnotation(kind: .note, page: 40, boxes: [Self.words])]))
        } throws: { error in
            (error as? RenderProblem)?.message.contains("page 41 does not exist") == true
        }
        // A line too thin or too thick, a drawing without a point, a box that is no place.
        for (annotation, reason) in [
            (PageAnnotation(kind: .square, page: 0, boxes: [Self.words], lineWidth: 0.1), "not between 0.25 and 50"),
            (PageAnnotation(kind: .line, page: 0, boxes: [Self.words], lineWidth: 80), "not between 0.25 and 50"),
            (PageAnnotation(kind: .ink, page: 0, boxes: [], strokes: [[]]), "an ink needs a place on the page"),
            (PageAnnotation(kind: .square, page: 0, boxes: [.init(x: .nan, y: 0, width: 10, height: 10)]), "needs a place on the page"),
        ] {
            #expect {
                try client.saveChanges(document, DocumentChanges(annotations: [annotation]))
            } throws: { error in
                let message = (error as? RenderProblem)?.message ?? "\(error)"
                return message.contains(reason) && !message.contains("\n")
            }
        }
    }

    /// Page rotations (0, 90…) and sizes as pypdf reads them, and whether `qpdf --check` passes.
    func rotations(_ path: String) -> (turns: [Int], checked: Bool) {
        let script = "import sys, pypdf; print(' '.join(str(p.rotation) for p in pypdf.PdfReader(sys.argv[1]).pages))"
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path], timeout: 60)
        let check = ProcessRunner.run(["/usr/bin/qpdf", "--check", path], timeout: 60)
        return (result.standardOutputText.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) },
                check.status == 0)
    }

    /// The size pdftoppm draws page `page` (1-based) at 72 dpi.
    func renderedSize(_ path: String, page: Int) throws -> (Int, Int) {
        let prefix = directory.file("size-\(UUID().uuidString)")
        _ = ProcessRunner.run(["/usr/bin/pdftoppm", "-r", "10", "-f", "\(page)", "-l", "\(page)", "-singlefile", path, prefix], timeout: 60)
        let header = String(decoding: try bytes(prefix + ".ppm").prefix(20), as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        return (Int(header[1]) ?? 0, Int(header[2]) ?? 0)
    }

    @Test func pagesTurnLeftAndRightAsAnUpdateAfterTheAnnotations() throws {
        let path = try copy("document.pdf", to: "turned.pdf")
        let original = try bytes(path)
        try save(path, DocumentChanges(annotations: [PageAnnotation(kind: .highlight, page: 0, boxes: [Self.words])], turns: [0: 1, 1: -1]))
        #expect(Array(try bytes(path).prefix(original.count)) == original, "the original bytes stay first")
        let (turns, checked) = rotations(path)
        #expect(turns == [90, 270, 0] && checked, "\(turns), qpdf --check \(checked)")
        let (width, height) = try renderedSize(path, page: 1)
        #expect(width > height, "page 1 is drawn landscape: \(width)×\(height)")
        #expect(annotations(path).contains { $0["subtype"] as? String == "/Highlight" }, "the highlight is still there")
        // Turned again: from where it is now.
        try save(path, DocumentChanges(turns: [0: 1]))
        #expect(rotations(path).turns == [180, 270, 0])
    }

    @Test func aFileWithACrossReferenceStreamGetsOneForItsTurn() throws {
        let path = directory.file("streams.pdf")
        let made = ProcessRunner.run(["/usr/bin/qpdf", "--object-streams=generate", Samples.path("document.pdf"), path], timeout: 60)
        #expect(made.status == 0, "\(made.standardError)")
        let original = try bytes(path)
        try save(path, DocumentChanges(turns: [2: 1]))
        let saved = try bytes(path)
        #expect(Array(saved.prefix(original.count)) == original)
        #expect(String(decoding: saved.suffix(saved.count - original.count), as: UTF8.self).contains("/Type /XRef"))
        let (turns, checked) = rotations(path)
        #expect(turns == [0, 0, 90] && checked, "\(turns), qpdf --check \(checked)")
    }

    @Test func aSignatureStaysValidAfterAPageIsTurned() throws {
        let signed = try SignedPDF.make(from: Samples.path("document.pdf"), in: directory)
        try save(signed, DocumentChanges(turns: [0: -1]))
        let check = ProcessRunner.run(["/usr/bin/pdfsig", signed], timeout: 60)
        #expect(check.standardOutputText.contains("Signature Validation: Signature is Valid."), "\(check.standardOutputText)")
        #expect(rotations(signed).turns.first == 270)
    }
}
