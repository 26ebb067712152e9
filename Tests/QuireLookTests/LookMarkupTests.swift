import Foundation
import QuireTestSupport
import Testing

/// Markup in the window (issue 36), as a person uses it under Xvfb: a word double-clicked,
/// Markup and Highlight pressed (AT-SPI), Done — an independent reader (pypdf) finds the
/// highlight in the file, the original bytes first, and pdftoppm draws it; Revert gives the
/// original bytes back; a Rectangle dragged with the pointer becomes a /Square; Ctrl+Z takes a
/// change back before Done. Each test marks a copy of a sample in its own folder.
@Suite("quire look markup (Xvfb)")
final class LookMarkupTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-markup")
    }

    func copy(_ sample: String, to name: String) throws -> String {
        let path = harness.directory.file(name)
        try FileManager.default.copyItem(atPath: Samples.path(sample), toPath: path)
        return path
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// A page's annotations as pypdf reads them: subtype, QuadPoints count, rectangle, text, the page's turn.
    func annotations(_ path: String, page: Int = 0) -> [[String: Any]] {
        let script = """
            import json, sys, pypdf
            page = pypdf.PdfReader(sys.argv[1]).pages[int(sys.argv[2])]
            out = []
            annots = page.get('/Annots')
            for ref in (annots.get_object() if annots is not None else []):
                a = ref.get_object()
                out.append({'subtype': str(a['/Subtype']), 'quads': len(a.get('/QuadPoints') or []),
                            'rect': [float(v) for v in a['/Rect']], 'appearance': '/AP' in a,
                            'contents': str(a.get('/Contents') or ''), 'rotate': int(page.get('/Rotate') or 0),
                            'ink': [len(p) // 2 for p in a.get('/InkList', [])], 'ending': [str(e) for e in a.get('/LE', [])]})
            print(json.dumps(out))
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path, "\(page)"], timeout: 60)
        #expect(result.status == 0, "pypdf: \(result.standardError)")
        return (try? JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]]) ?? []
    }

    /// Keeps a screenshot in `$QUIRE_MARKUP_SCREENSHOTS` when set (to look at them).
    func keep(_ shot: Screenshot) -> Screenshot { shot.kept(inFolder: "QUIRE_MARKUP_SCREENSHOTS") }

    static func label(_ prefix: String) -> ([WindowTestBed.Accessible]) -> Bool {
        { tree in tree.contains { $0.role == "label" && $0.name.hasPrefix(prefix) } }
    }

    static func isSensitive(_ tree: [WindowTestBed.Accessible], _ name: String) -> Bool {
        tree.contains { $0.role == "push button" && $0.name == name && $0.states.contains("sensitive") }
    }

    /// Opens `path`, waits for page 1 and turns Markup on; the window's id and where the page is.
    func openWithMarkup(_ path: String, title: String, environment extra: [String: String] = [:]) throws
        -> (BackgroundProcess, String, (left: Int, top: Int, width: Int)) {
        let bed = harness.bed
        let viewer = try harness.look([path], ProcessInfo.processInfo.environment, extra)
        var opened = false
        defer { if !opened { harness.finish(viewer) } }  // the viewer's crash, if that is what failed
        let window = try #require(bed.waitForWindow(named: title), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        // The toggle (a push button to AT-SPI in GTK 4.8) is there once the worker said the PDF may be annotated.
        let ready = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Markup" && $0.states.contains("sensitive") } }
        #expect(ready.contains { $0.role == "push button" && $0.name == "Markup" && $0.states.contains("sensitive") },
                "\(ready.filter { $0.name == "Markup" || $0.name == "Highlight" })")
        let before = try bed.geometry(of: window)
        #expect(bed.press("Markup"))
        let tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Highlight" && $0.states.contains("visible") } }
        #expect(tree.contains { $0.role == "push button" && $0.name == "Highlight" && $0.states.contains("visible") }, "the tool bar shows: \(tree.filter { $0.name == "Markup" || $0.name == "Highlight" })")
        // The bar takes room from the pages: the page is laid out again, smaller; found once it has settled.
        usleep(500_000)
        let shot = keep(try harness.screenshot("markup-page", window: window) { $0.count { r, g, b in r < 60 && g < 60 && b < 60 } > 100 })
        let page = try #require(LookSelectionTests.pageRectangle(shot), "the page in \(shot.path)")
        let after = try bed.geometry(of: window)
        #expect(after.width == before.width && after.height == before.height, "the bar does not change the window's size: \(before) → \(after)")
        opened = true
        return (viewer, window, page)
    }

    @Test func aDoubleClickedWordHighlightedAndSavedIsInTheFileAndRevertGivesTheOriginalBack() throws {
        let bed = harness.bed
        let path = try copy("find-cases.pdf", to: "marked.pdf")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let original = try bytes(path)
        let (viewer, window, page) = try openWithMarkup(path, title: "^marked\\.pdf$")
        defer { harness.finish(viewer) }
        // Double click in "résumé" (first line: 78–88 pt down; the word from 98 to 135 pt).
        let word = LookSelectionTests.windowPoint(page, x: 116, y: 83)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(word.0)", "\(word.1)", "click", "--repeat", "2", "--delay", "80", "1"])
        _ = bed.waitForAccessible(Self.label("6 characters selected"))
        #expect(bed.press("Highlight"))
        var tree = bed.waitForAccessible(Self.label("Highlighted on page 1"))
        #expect(Self.label("Highlighted on page 1 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        // Drawn over the page at once, before Done: yellow where the word is.
        let pending = keep(try harness.screenshot("markup-pending", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100 })
        #expect(pending.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100, "the pending highlight is drawn: \(pending.path)")
        #expect(try bytes(path) == original, "nothing is written before Done")

        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into marked.pdf"))
        #expect(Self.label("Saved 1 change into marked.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let saved = try bytes(path)
        #expect(saved.count > original.count && Array(saved.prefix(original.count)) == original, "the original bytes stay first")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640, "the mode is kept")
        let found = annotations(path)
        #expect(found.map { $0["subtype"] as? String } == ["/Highlight"], "\(found)")
        #expect(found.first?["quads"] as? Int == 8, "one quadrilateral (one line of text): \(found)")
        #expect(found.first?["appearance"] as? Bool == true, "with an appearance stream")
        // Its rectangle is the word's, in PDF space (A4: 841.89 pt high).
        if let rect = found.first?["rect"] as? [Double], rect.count == 4 {
            #expect(rect[0] > 90 && rect[0] < 102 && rect[2] > 130 && rect[2] < 142, "\(rect)")
            #expect(rect[3] > 841.89 - 82 && rect[1] < 841.89 - 84, "\(rect)")
        }
        let raster = try #require(PDFPageRaster(path, in: harness.directory.path), "pdftoppm drew \(path)")
        let yellow = raster.count(x: 98, y: 76, width: 38, height: 14) { r, g, b in r > 200 && g > 180 && b < 120 }
        #expect(yellow > 100, "pdftoppm draws the highlight: \(yellow) yellow pixels")
        // Shown as saved: the page drawn by the worker from the file carries it (no pending change is left).
        let shown = keep(try harness.screenshot("markup-saved", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100 })
        #expect(shown.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100, "\(shown.path)")
        tree = bed.accessibilityTree()
        #expect(!Self.isSensitive(tree, "Done"), "nothing left to save")

        #expect(bed.press("Revert"))
        tree = bed.waitForAccessible(Self.label("Reverted marked.pdf to its original bytes"))
        #expect(Self.label("Reverted marked.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(try bytes(path) == original, "Revert: byte for byte the original")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        let reverted = keep(try harness.screenshot("markup-reverted", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } < 20 })
        #expect(reverted.count { r, g, b in r > 200 && g > 180 && b < 120 } < 20, "the highlight has gone from the page: \(reverted.path)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aDraggedRectangleIsSavedAsASquareAndCtrlZTakesAChangeBackBeforeDone() throws {
        let bed = harness.bed
        let path = try copy("find-cases.pdf", to: "shapes.pdf")
        let original = try bytes(path)
        let (viewer, window, page) = try openWithMarkup(path, title: "^shapes\\.pdf$")
        defer { harness.finish(viewer) }
        #expect(bed.press("Rectangle"))
        _ = bed.waitForAccessible(Self.label("Rectangle: drag on the page"))
        let from = LookSelectionTests.windowPoint(page, x: 300, y: 400), to = LookSelectionTests.windowPoint(page, x: 450, y: 500)
        /// The pointer pressed at `from`, moved a little, then to `to` and released.
        func drag(_ from: (Int, Int), _ to: (Int, Int), by nudge: (Int, Int) = (10, 10)) {
            bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(from.0)", "\(from.1)", "mousedown", "1",
                     "mousemove", "--window", window, "\(from.0 + nudge.0)", "\(from.1 + nudge.1)", "sleep", "0.1",
                     "mousemove", "--window", window, "\(to.0)", "\(to.1)", "sleep", "0.1", "mouseup", "1"])
        }
        drag(from, to)
        var tree = bed.waitForAccessible(Self.label("Rectangle on page 1"))
        #expect(Self.label("Rectangle on page 1 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(Self.isSensitive(tree, "Done"))
        // Its outline is drawn at once: yellow (the first colour) around the dragged box.
        let drawn = keep(try harness.screenshot("markup-rectangle", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100 })
        #expect(drawn.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100, "\(drawn.path)")

        // Ctrl+Z: gone before Done; nothing to save.
        bed.key("ctrl+z")
        tree = bed.waitForAccessible(Self.label("Undone"))
        #expect(Self.label("Undone · no changes left to save")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(!Self.isSensitive(tree, "Done"), "nothing to save after the undo")
        let undone = keep(try harness.screenshot("markup-undone", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } < 20 })
        #expect(undone.count { r, g, b in r > 200 && g > 180 && b < 120 } < 20, "the rectangle is no longer drawn: \(undone.path)")
        // Ctrl+Shift+Z brings it back; Done saves it.
        bed.key("ctrl+shift+z")
        tree = bed.waitForAccessible(Self.label("Redone"))
        #expect(Self.label("Redone · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into shapes.pdf"))
        #expect(Self.label("Saved 1 change into shapes.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let saved = try bytes(path)
        #expect(Array(saved.prefix(original.count)) == original)
        let found = annotations(path)
        #expect(found.map { $0["subtype"] as? String } == ["/Square"], "one square, the undone change not saved twice: \(found)")
        if let rect = found.first?["rect"] as? [Double], rect.count == 4 {
            // 300…450 × 400…500 pt from the top (± the pointer's pixel and the border).
            #expect(abs(rect[0] - 300) < 6 && abs(rect[2] - 450) < 6, "\(rect)")
            #expect(abs(rect[3] - (841.89 - 400)) < 6 && abs(rect[1] - (841.89 - 500)) < 6, "\(rect)")
        }

        // The square, now in the file: with Select chosen a drag moves it (drawn at once where
        // it goes, Done saves its new place), a click selects it, Delete veils it, Done removes
        // it from the file.
        #expect(bed.press("Select"))
        _ = bed.waitForAccessible(Self.label("Select: drag to select text"))
        let inside = LookSelectionTests.windowPoint(page, x: 375, y: 450), below = LookSelectionTests.windowPoint(page, x: 375, y: 600)
        drag(inside, below, by: (0, 10))
        tree = bed.waitForAccessible(Self.label("Rectangle on page 1 moved"))
        #expect(Self.label("Rectangle on page 1 moved · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        func yellow(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 200 && g > 180 && b < 120 }
        let oldPlace = LookSelectionTests.windowPoint(page, x: 290, y: 390), oldEnd = LookSelectionTests.windowPoint(page, x: 460, y: 510)
        let newPlace = LookSelectionTests.windowPoint(page, x: 290, y: 540), newEnd = LookSelectionTests.windowPoint(page, x: 460, y: 660)
        let was = WindowTestBed.Accessible.Extents(x: oldPlace.0, y: oldPlace.1, width: oldEnd.0 - oldPlace.0, height: oldEnd.1 - oldPlace.1)
        let goes = WindowTestBed.Accessible.Extents(x: newPlace.0, y: newPlace.1, width: newEnd.0 - newPlace.0, height: newEnd.1 - newPlace.1)
        let dragged = keep(try harness.screenshot("markup-moved", window: window) { $0.count(in: goes, yellow) > 100 })
        #expect(dragged.count(in: goes, yellow) > 100 && dragged.count(in: was, yellow) < 20,
                "drawn where it goes (\(dragged.count(in: goes, yellow))), veiled where it was (\(dragged.count(in: was, yellow))): \(dragged.path)")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into shapes.pdf"))
        #expect(Self.label("Saved 1 change into shapes.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let moved = annotations(path)
        if let rect = moved.first?["rect"] as? [Double], rect.count == 4 {
            #expect(abs(rect[3] - (841.89 - 550)) < 8 && abs(rect[0] - 300) < 6, "150 points lower: \(rect)")
        } else {
            Issue.record("no square after the move: \(moved)")
        }

        // Selected, it shows a handle at its corner: dragged, the corner follows the pointer
        // (the top left stays), drawn stretched at once; Done saves its new rectangle.
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(below.0)", "\(below.1)", "click", "1"])
        tree = bed.waitForAccessible(Self.label("Rectangle selected"))
        #expect(Self.label("Rectangle selected · drag to move it or its corner to resize it, Delete removes it when Done saves")(tree),
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        let corner = LookSelectionTests.windowPoint(page, x: 452, y: 652), stretched = LookSelectionTests.windowPoint(page, x: 522, y: 702)
        drag(corner, stretched)
        tree = bed.waitForAccessible(Self.label("Rectangle on page 1 resized"))
        #expect(Self.label("Rectangle on page 1 resized · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let grownFrom = LookSelectionTests.windowPoint(page, x: 470, y: 545), grownTo = LookSelectionTests.windowPoint(page, x: 530, y: 710)
        let grown = WindowTestBed.Accessible.Extents(x: grownFrom.0, y: grownFrom.1, width: grownTo.0 - grownFrom.0, height: grownTo.1 - grownFrom.1)
        let resized = keep(try harness.screenshot("markup-resized", window: window) { $0.count(in: grown, yellow) > 100 })
        #expect(resized.count(in: grown, yellow) > 100, "drawn out to where its corner was dragged (\(resized.count(in: grown, yellow))): \(resized.path)")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into shapes.pdf"))
        #expect(Self.label("Saved 1 change into shapes.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        if let rect = annotations(path).first?["rect"] as? [Double], rect.count == 4 {
            #expect(abs(rect[0] - 300) < 6 && abs(rect[3] - (841.89 - 550)) < 8, "the top left stays: \(rect)")
            #expect(abs(rect[2] - 520) < 8 && abs(rect[1] - (841.89 - 700)) < 8, "the corner where it was dragged: \(rect)")
        } else {
            Issue.record("no square after the resize: \(annotations(path))")
        }

        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(below.0)", "\(below.1)", "click", "1"])
        tree = bed.waitForAccessible(Self.label("Rectangle selected"))
        bed.key("Delete")
        tree = bed.waitForAccessible(Self.label("Rectangle on page 1 removed when saved"))
        #expect(Self.label("Rectangle on page 1 removed when saved · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let veiled = keep(try harness.screenshot("markup-removed", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } < 20 })
        #expect(veiled.count { r, g, b in r > 200 && g > 180 && b < 120 } < 20, "the square is veiled until Done: \(veiled.path)")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into shapes.pdf"))
        #expect(Self.label("Saved 1 change into shapes.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(annotations(path).isEmpty, "no annotation left: \(annotations(path))")
        #expect(Array(try bytes(path).prefix(saved.count)) == saved, "the removal is an update after the last")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// Draw: a stroke dragged with the pointer through several points is drawn at once and
    /// saved as one /Ink whose /InkList holds the pointer's points; Arrow: a /Line with an open
    /// arrowhead. pdftoppm draws both where they were dragged.
    @Test func aDrawnStrokeAndAnArrowAreSavedAsInkAndALineWithItsHead() throws {
        let bed = harness.bed
        let path = try copy("find-cases.pdf", to: "drawn.pdf")
        let original = try bytes(path)
        let (viewer, window, page) = try openWithMarkup(path, title: "^drawn\\.pdf$")
        defer { harness.finish(viewer) }
        #expect(bed.press("Draw"))
        _ = bed.waitForAccessible(Self.label("Draw: drag on the page"))
        // A stroke from (100, 400) over (200, 450) and (300, 350) to (400, 400) pt, in steps.
        var command = ["/usr/bin/xdotool"]
        let points = [(100, 400), (150, 425), (200, 450), (250, 400), (300, 350), (350, 375), (400, 400)]
        for (index, point) in points.enumerated() {
            let at = LookSelectionTests.windowPoint(page, x: Double(point.0), y: Double(point.1))
            command += ["mousemove", "--window", window, "\(at.0)", "\(at.1)"] + (index == 0 ? ["mousedown", "1"] : ["sleep", "0.05"])
        }
        bed.run(command + ["mouseup", "1"])
        var tree = bed.waitForAccessible(Self.label("Drawing on page 1"))
        #expect(Self.label("Drawing on page 1 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let drawn = keep(try harness.screenshot("markup-drawn", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100 })
        #expect(drawn.count { r, g, b in r > 200 && g > 180 && b < 120 } > 100, "the stroke is drawn at once: \(drawn.path)")

        #expect(bed.press("Arrow"))
        _ = bed.waitForAccessible(Self.label("Arrow: drag from its tail to its tip"))
        let tail = LookSelectionTests.windowPoint(page, x: 100, y: 600), tip = LookSelectionTests.windowPoint(page, x: 400, y: 600)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(tail.0)", "\(tail.1)", "mousedown", "1",
                 "mousemove", "--window", window, "\(tail.0 + 10)", "\(tail.1)", "sleep", "0.1",
                 "mousemove", "--window", window, "\(tip.0)", "\(tip.1)", "sleep", "0.1", "mouseup", "1"])
        tree = bed.waitForAccessible(Self.label("Arrow on page 1"))
        #expect(Self.label("Arrow on page 1 · 2 changes not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(try bytes(path) == original, "nothing is written before Done")
        // A closed loop (it ends where it began) is a stroke too.
        #expect(bed.press("Draw"))
        _ = bed.waitForAccessible(Self.label("Draw: drag on the page"))
        command = ["/usr/bin/xdotool"]
        for (index, point) in [(150, 700), (200, 680), (230, 720), (190, 750), (151, 701)].enumerated() {
            let at = LookSelectionTests.windowPoint(page, x: Double(point.0), y: Double(point.1))
            command += ["mousemove", "--window", window, "\(at.0)", "\(at.1)"] + (index == 0 ? ["mousedown", "1"] : ["sleep", "0.05"])
        }
        bed.run(command + ["mouseup", "1"])
        tree = bed.waitForAccessible(Self.label("Drawing on page 1 · 3 changes"))
        #expect(Self.label("Drawing on page 1 · 3 changes not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")

        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 3 changes into drawn.pdf"))
        #expect(Self.label("Saved 3 changes into drawn.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(Array(try bytes(path).prefix(original.count)) == original, "the original bytes stay first")
        let found = annotations(path)
        try #require(found.map { $0["subtype"] as? String } == ["/Ink", "/Line", "/Ink"], "\(found)")
        let strokes = found[0]["ink"] as? [Int] ?? []
        #expect(strokes.count == 1 && strokes[0] >= points.count, "one stroke with the pointer's points: \(found[0])")
        if let rect = found[0]["rect"] as? [Double], rect.count == 4 {
            // 100…400 × 350…450 pt from the top, with the line's width and the pointer's pixel.
            #expect(abs(rect[0] - 100) < 8 && abs(rect[2] - 400) < 8, "\(rect)")
            #expect(abs(rect[3] - (841.89 - 350)) < 8 && abs(rect[1] - (841.89 - 450)) < 8, "\(rect)")
        }
        #expect(found[1]["ending"] as? [String] == ["/None", "/OpenArrow"], "\(found[1])")
        let raster = try #require(PDFPageRaster(path, in: harness.directory.path), "pdftoppm drew \(path)")
        let onStroke = raster.count(x: 95, y: 345, width: 310, height: 110) { r, g, b in r > 200 && g > 180 && b < 120 }
        let onArrow = raster.count(x: 95, y: 590, width: 310, height: 20) { r, g, b in r > 200 && g > 180 && b < 120 }
        #expect(onStroke > 300 && onArrow > 200, "pdftoppm draws the stroke (\(onStroke)) and the arrow (\(onArrow))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// A copy of a sample as `name`.pdf to sign, the signature file it will be kept in and the
    /// data folder that holds it (the test's own: no signature yet).
    func signing(_ name: String) throws -> (path: String, kept: String, dataHome: String) {
        let dataHome = harness.directory.file(name + "-data")
        return (try copy("find-cases.pdf", to: name + ".pdf"), dataHome + "/quire/signatures/signature.json", dataHome)
    }

    /// Presses Sign with no signature kept: the pad opens (its window's X id).
    func openSignaturePad() throws -> String {
        #expect(harness.bed.press("Sign"))
        return try #require(harness.bed.waitForWindow(named: "^Draw Your Signature$"), "the signature pad opens the first time")
    }

    /// Sign: the first time, the pad opens; a signature drawn there with the pointer and saved
    /// is kept (mode 0600, in a folder only its owner may enter, under $XDG_DATA_HOME); a click
    /// places it on the page, 150 points wide around the click; Done saves it as ink.
    @Test func aSignatureDrawnOnceIsKeptAndPlacedWhereThePageIsClicked() throws {
        let bed = harness.bed
        let (path, kept, dataHome) = try signing("signed")
        let (viewer, window, page) = try openWithMarkup(path, title: "^signed\\.pdf$", environment: ["XDG_DATA_HOME": dataHome])
        defer { harness.finish(viewer) }
        let pad = try openSignaturePad()
        let geometry = try bed.geometry(of: pad)
        // A loop and a tail across the middle of the pad (the pad fills most of its window).
        let (cx, cy) = (geometry.width / 2, geometry.height / 2)
        var command = ["/usr/bin/xdotool"]
        for (index, (dx, dy)) in [(-120, 10), (-80, -20), (-40, 15), (0, -25), (40, 10), (80, -15), (120, 5)].enumerated() {
            command += ["mousemove", "--window", pad, "\(cx + dx)", "\(cy + dy)"] + (index == 0 ? ["mousedown", "1"] : ["sleep", "0.05"])
        }
        bed.run(command + ["mouseup", "1"])
        let drawn = keep(try harness.screenshot("markup-signature-pad", window: pad) { $0.count { r, g, b in b > 60 && r < 60 && g < 80 } > 50 })
        #expect(drawn.count { r, g, b in b > 60 && r < 60 && g < 80 } > 50, "the stroke is drawn on the pad: \(drawn.path)")
        #expect(bed.press("Save"))
        var tree = bed.waitForAccessible(Self.label("Signature kept"))
        #expect(Self.label("Signature kept · Sign: click where it goes")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let attributes = try FileManager.default.attributesOfItem(atPath: kept)
        #expect(attributes[.posixPermissions] as? Int == 0o600, "the signature file is the owner's alone")
        #expect(try FileManager.default.attributesOfItem(atPath: dataHome + "/quire/signatures")[.posixPermissions] as? Int == 0o700)
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: kept))) as? [String: Any]
        let strokes = (stored?["signature"] as? [String: Any])?["strokes"] as? [[[Double]]] ?? []
        #expect(strokes.count == 1 && strokes[0].count >= 7, "one stroke through the pointer's points: \(strokes.map(\.count))")

        // A click on the page places it there.
        let at = LookSelectionTests.windowPoint(page, x: 300, y: 600)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(at.0)", "\(at.1)", "click", "1"])
        tree = bed.waitForAccessible(Self.label("Signature on page 1"))
        #expect(Self.label("Signature on page 1 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let placed = keep(try harness.screenshot("markup-signature-placed", window: window) { $0.count { r, g, b in b > 60 && r < 60 && g < 80 } > 50 })
        #expect(placed.count { r, g, b in b > 60 && r < 60 && g < 80 } > 50, "the signature is drawn on the page at once: \(placed.path)")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into signed.pdf"))
        #expect(Self.label("Saved 1 change into signed.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let found = annotations(path)
        try #require(found.map { $0["subtype"] as? String } == ["/Ink"], "\(found)")
        #expect((found[0]["ink"] as? [Int])?.first.map { $0 >= 7 } == true, "\(found[0])")
        if let rect = found[0]["rect"] as? [Double], rect.count == 4 {
            // 150 points wide (with the line's width) around x = 300; around y = 600 from the top.
            #expect(abs(rect[0] - 225) < 6 && abs(rect[2] - 375) < 6, "\(rect)")
            #expect(rect[1] < 841.89 - 600 && rect[3] > 841.89 - 600, "\(rect)")
        }
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// Sign with Certificate… (shown because `~/.pki/nssdb` has a certificate that can sign): a
    /// box dragged on the page, the dialog's reason typed and Sign Document pressed — the file is
    /// signed in place at once: pdfsig finds a valid signature by Quire Test over the whole file,
    /// the original bytes come first, the page shows the signature's framed box where it was
    /// dragged with the signature drawn once (Sign's) in it, and Revert gives the original
    /// bytes back.
    @Test func aBoxDraggedForACertificateSignatureSignsTheFileInPlace() throws {
        let bed = harness.bed
        let path = try copy("find-cases.pdf", to: "certified.pdf")
        let original = try bytes(path)
        let home = harness.directory.file("certificate-home")
        _ = try NSSTestDatabase.make(in: harness.directory, folder: home + "/.pki/nssdb")
        // A signature drawn once with Sign (a zigzag, 100 × 40): the box's picture.
        let dataHome = harness.directory.file("certificate-data")
        try FileManager.default.createDirectory(atPath: dataHome + "/quire/signatures", withIntermediateDirectories: true)
        let kept = #"{"version": 1, "signature": {"width": 100, "height": 40, "strokes": [[[0, 20], [25, 0], [50, 40], [75, 0], [100, 20]]]}}"#
        try Data(kept.utf8).write(to: URL(fileURLWithPath: dataHome + "/quire/signatures/signature.json"))
        let (viewer, window, page) = try openWithMarkup(path, title: "^certified\\.pdf$", environment: ["HOME": home, "XDG_DATA_HOME": dataHome])
        defer { harness.finish(viewer) }
        _ = bed.waitForAccessible { $0.contains { $0.name == "Sign with Certificate…" && $0.states.contains("visible") } }
        #expect(bed.press("Sign with Certificate…"))
        var tree = bed.waitForAccessible(Self.label("Sign with Certificate: drag a box"))
        #expect(Self.label("Sign with Certificate: drag a box on the page where the signature goes")(tree),
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        let from = LookSelectionTests.windowPoint(page, x: 300, y: 600), to = LookSelectionTests.windowPoint(page, x: 500, y: 660)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(from.0)", "\(from.1)", "mousedown", "1",
                 "mousemove", "--window", window, "\(from.0 + 10)", "\(from.1 + 10)", "sleep", "0.1",
                 "mousemove", "--window", window, "\(to.0)", "\(to.1)", "sleep", "0.1", "mouseup", "1"])
        let dialog = try #require(bed.waitForWindow(named: "^Sign with Certificate$"), "the certificate dialog opens")
        tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Sign Document" } }
        let shot = keep(try harness.screenshot("markup-certificate-dialog", window: dialog))
        #expect(shot.count { r, g, b in r < 80 && g < 80 && b < 80 } > 50, "the dialog is drawn: \(shot.path)")
        bed.type("Approved")
        #expect(bed.press("Sign Document"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Signed with quire-test into certified.pdf"))
        #expect(Self.label("Signed with quire-test into certified.pdf · Revert puts the original back")(tree),
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        let signed = try bytes(path)
        #expect(signed.count > original.count && Array(signed.prefix(original.count)) == original, "the original bytes come first")
        let check = ProcessRunner.run(["/usr/bin/pdfsig", "-nocert", path], timeout: 60).standardOutputText
        #expect(check.contains("Signature Validation: Signature is Valid.") && check.contains("Common Name: Quire Test")
                && check.contains("Total document signed"), "\(check)")
        #expect(String(decoding: signed[original.count...], as: UTF8.self).contains("/Reason <FEFF0041007000700072006F007600650064>"),
                "the reason typed is saved")
        // The page, read again, shows the signature's frame in the dragged box.
        func blue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 110 && r < 90 && g < 110 && b > r + 50 }
        let inside = LookSelectionTests.windowPoint(page, x: 296, y: 596), corner = LookSelectionTests.windowPoint(page, x: 504, y: 664)
        let box = WindowTestBed.Accessible.Extents(x: inside.0, y: inside.1, width: corner.0 - inside.0, height: corner.1 - inside.1)
        let shown = keep(try harness.screenshot("markup-certified", window: window) { $0.count(in: box, blue) > 100 })
        #expect(shown.count(in: box, blue) > 100, "the signature's box is drawn where it was dragged: \(shown.path)")
        // The drawn signature in ink in its upper part, inside the frame (the box's ground there
        // is a pale grey-blue: b − r ≈ 10; the ink, smoothed at this zoom, far bluer).
        func ink(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { Int(b) > Int(r) + 40 }
        let upperStart = LookSelectionTests.windowPoint(page, x: 310, y: 605), upperEnd = LookSelectionTests.windowPoint(page, x: 490, y: 642)
        let upper = WindowTestBed.Accessible.Extents(x: upperStart.0, y: upperStart.1, width: upperEnd.0 - upperStart.0,
                                                     height: upperEnd.1 - upperStart.1)
        #expect(shown.count(in: upper, ink) > 40, "the drawn signature in the box (\(shown.count(in: upper, ink))): \(shown.path)")
        #expect(bed.press("Revert"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Reverted certified.pdf"))
        #expect(try bytes(path) == original, "Revert gives the original bytes back")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// Sign with a typed name: the pad's name field has the focus; the name is written across
    /// the pad in the cursive face and kept as ink strokes (the letters' outlines: many strokes,
    /// a line far wider than tall), placed and saved as ink like a drawn signature.
    @Test func aTypedNameIsWrittenInACursiveFaceAndKeptAsInk() throws {
        let bed = harness.bed
        let (path, kept, dataHome) = try signing("typed")
        let (viewer, window, page) = try openWithMarkup(path, title: "^typed\\.pdf$", environment: ["XDG_DATA_HOME": dataHome])
        defer { harness.finish(viewer) }
        let pad = try openSignaturePad()
        _ = bed.waitForAccessible { $0.contains { $0.name == "Type Your Name" && $0.states.contains("focused") } }
        bed.type("Ada Lovelace")
        let written = keep(try harness.screenshot("markup-signature-typed", window: pad) { $0.count { r, g, b in b > 60 && r < 60 && g < 80 } > 400 })
        #expect(written.count { r, g, b in b > 60 && r < 60 && g < 80 } > 400, "the name is written on the pad: \(written.path)")
        #expect(bed.press("Save"))
        _ = bed.waitForAccessible(Self.label("Signature kept"))
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: kept))) as? [String: Any]
        let signature = try #require(stored?["signature"] as? [String: Any])
        let strokes = signature["strokes"] as? [[[Double]]] ?? []
        let width = signature["width"] as? Double ?? 0, height = signature["height"] as? Double ?? 1
        // "Ada Lovelace": eleven letters, each one or more closed outlines.
        #expect(strokes.count >= 11 && strokes.allSatisfy { $0.count >= 2 }, "\(strokes.map(\.count))")
        #expect(width > 3 * height, "a line of writing: \(width) × \(height)")
        let at = LookSelectionTests.windowPoint(page, x: 300, y: 600)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(at.0)", "\(at.1)", "click", "1"])
        _ = bed.waitForAccessible(Self.label("Signature on page 1"))
        #expect(bed.press("Done"))
        let tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into typed.pdf"))
        #expect(Self.label("Saved 1 change into typed.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let found = annotations(path)
        #expect(found.map { $0["subtype"] as? String } == ["/Ink"], "\(found)")
        #expect((found.first?["ink"] as? [Int])?.count == strokes.count, "one ink path a stroke: \(found)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// Text: the text typed in the bar's field, a click on a blank part of the page — the box is
    /// drawn there at once (in black: yellow, the first colour, is for highlighting), and Done
    /// saves it as a /FreeText whose rectangle starts where the page was clicked.
    @Test func aTextBoxTypedInTheFieldIsPlacedWhereThePageIsClickedAndSavedAsFreeText() throws {
        let bed = harness.bed
        let path = try copy("find-cases.pdf", to: "text-box.pdf")
        let original = try bytes(path)
        let (viewer, window, page) = try openWithMarkup(path, title: "^text-box\\.pdf$")
        defer { harness.finish(viewer) }
        #expect(bed.press("Text"))
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Text Box Text" && $0.states.contains("visible") } }
        let field = try #require(tree.first { $0.name == "Text Box Text" && $0.extents != nil }?.extents,
                                 "\(tree.filter { $0.name.hasPrefix("Text") })")
        #expect(tree.contains { $0.name == "Text Size" && $0.states.contains("visible") }, "the size choice shows with Text")
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(field.x + field.width / 2)", "\(field.y + field.height / 2)", "click", "1"])
        _ = bed.waitForAccessible { $0.contains { $0.name == "Text Box Text" && $0.states.contains("focused") } }
        bed.type("Received with thanks")
        // The box's place: 100 points from the left, 300 from the top, where page 1 is blank.
        let corner = LookSelectionTests.windowPoint(page, x: 100, y: 300)
        let far = LookSelectionTests.windowPoint(page, x: 260, y: 318)
        let region = WindowTestBed.Accessible.Extents(x: corner.0, y: corner.1, width: far.0 - corner.0, height: far.1 - corner.1)
        func dark(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r < 90 && g < 90 && b < 90 }
        let blank = try harness.screenshot("markup-text-before", window: window) { _ in true }
        #expect(blank.count(in: region, dark) == 0, "the page is blank there before: \(blank.path)")
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(corner.0)", "\(corner.1)", "click", "1"])
        tree = bed.waitForAccessible(Self.label("Text on page 1"))
        #expect(Self.label("Text on page 1 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let shown = keep(try harness.screenshot("markup-text", window: window) { $0.count(in: region, dark) > 40 })
        #expect(shown.count(in: region, dark) > 40, "the text is drawn where the page was clicked: \(shown.path)")

        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into text-box.pdf"))
        #expect(Self.label("Saved 1 change into text-box.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let found = annotations(path)
        try #require(found.map { $0["subtype"] as? String } == ["/FreeText"], "\(found)")
        #expect(found[0]["contents"] as? String == "Received with thanks" && found[0]["appearance"] as? Bool == true, "\(found[0])")
        if let rect = found[0]["rect"] as? [Double], rect.count == 4 {
            // The click's point is the box's top left corner (within a pixel of the screen's scale).
            #expect(abs(rect[0] - 100) < 3 && abs(rect[3] - (842 - 300)) < 3 && rect[2] - rect[0] > 100, "\(rect)")
        }
        #expect(Array(try bytes(path).prefix(original.count)) == original)
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aFileChangedOnDiskIsAskedAboutBeforeANoteAndATurnAreSavedOverIt() throws {
        let bed = harness.bed
        let path = try copy("find-cases.pdf", to: "changed.pdf")
        let original = try bytes(path)
        let (viewer, window, page) = try openWithMarkup(path, title: "^changed\\.pdf$")
        defer { harness.finish(viewer) }
        // The Note tool, its text typed into the field it shows, then a click on the page.
        #expect(bed.press("Note"))
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Note Text" && $0.states.contains("visible") } }
        let field = try #require(tree.first { $0.name == "Note Text" && $0.extents != nil }?.extents, "\(tree.filter { $0.name.hasPrefix("Note") })")
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(field.x + field.width / 2)", "\(field.y + field.height / 2)", "click", "1"])
        _ = bed.waitForAccessible { $0.contains { $0.name == "Note Text" && $0.states.contains("focused") } }
        bed.type("Check this")
        let spot = LookSelectionTests.windowPoint(page, x: 400, y: 300)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(spot.0)", "\(spot.1)", "click", "1"])
        tree = bed.waitForAccessible(Self.label("Note on page 1"))
        #expect(Self.label("Note on page 1 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(bed.press("Rotate Right"))
        tree = bed.waitForAccessible(Self.label("Page 1 turns right when saved"))
        #expect(Self.label("Page 1 turns right when saved · 2 changes not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let pending = keep(try harness.screenshot("markup-note-turn", window: window) { $0.count { r, g, b in r > 200 && g > 180 && b < 120 } > 200 })
        #expect(pending.count { r, g, b in r > 200 && g > 180 && b < 120 } > 200, "the note's yellow square is drawn: \(pending.path)")

        // Another program writes the file meanwhile: Done asks first; Cancel writes nothing.
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Save Over It" } }
        #expect(tree.contains { $0.role == "push button" && $0.name == "Save Over It" }, "asked before overwriting")
        #expect(tree.contains { $0.role == "label" && $0.name.contains("was changed by another program since it was opened") })
        _ = keep(try Screenshot(path: bed.screenshot("markup-changed-dialog")))
        #expect(bed.press("Cancel"))
        tree = bed.waitForAccessible(Self.label("Not saved: the file changed on disk"))
        #expect(Self.label("Not saved: the file changed on disk since it was opened · 2 changes not saved")(tree),
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(try bytes(path) == original, "the file is as the other program left it")
        // Closing with the changes not saved: the first Esc says so (the window stays).
        bed.key("Escape")
        tree = bed.waitForAccessible(Self.label("2 changes not saved: Done saves them"))
        #expect(Self.label("2 changes not saved: Done saves them; close again to drop them")(tree),
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(bed.hasWindow(named: "^changed\\.pdf$"), "the window stays")

        // Done again, Save Over It: the file is read again as it is now and the same changes are
        // saved into it — a /Text annotation with its text, page 1 turned.
        #expect(bed.press("Done"))
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Save Over It" } }
        #expect(bed.press("Save Over It"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 2 changes into changed.pdf"))
        #expect(Self.label("Saved 2 changes into changed.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let found = annotations(path)
        #expect(found.map { $0["subtype"] as? String } == ["/Text"], "\(found)")
        #expect(found.first?["contents"] as? String == "Check this" && found.first?["rotate"] as? Int == 90, "\(found)")
        #expect(Array(try bytes(path).prefix(original.count)) == original)
        // Shown as saved: the page is landscape now (wider than tall).
        let turned = keep(try harness.screenshot("markup-turned", window: window) { shot in
            LookSelectionTests.pageRectangle(shot).map { $0.width > 600 } ?? false
        })
        #expect(LookSelectionTests.pageRectangle(turned).map { $0.width > 600 } == true, "\(turned.path)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aPDFThatForbidsNotesAndAReadOnlyFileSayWhy() throws {
        let bed = harness.bed
        let locked = try copy("forms/form-locked.pdf", to: "locked.pdf")
        let viewer = try harness.look([locked])
        defer { harness.finish(viewer) }
        #expect(bed.waitForWindow(named: "^locked\\.pdf$") != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Markup" && $0.states.contains("visible") } }
        let toggle = tree.first { $0.role == "push button" && $0.name == "Markup" }
        #expect(toggle != nil && toggle?.states.contains("sensitive") == false, "insensitive: \(String(describing: toggle))")
        #expect(toggle?.detail == "the PDF's permissions do not allow adding annotations", "\(String(describing: toggle))")
        bed.key("ctrl+shift+a")
        tree = bed.waitForAccessible(Self.label("Markup: the PDF's permissions"))
        #expect(Self.label("Markup: the PDF's permissions do not allow adding annotations")(tree))
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))

        // A read-only file: Markup works, Done is off and says why.
        let readOnly = try copy("find-cases.pdf", to: "read-only.pdf")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: readOnly) }
        let (second, _, _) = try openWithMarkup(readOnly, title: "^read-only\\.pdf$")
        defer { second.stop() }
        // Nothing selected: Highlight marks the current find match ("fox", on page 3).
        #expect(bed.press("Highlight"))
        tree = bed.waitForAccessible(Self.label("Select some text first"))
        #expect(Self.label("Select some text first (drag, double click or Ctrl+A), or find a word")(tree))
        bed.key("ctrl+f")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        bed.type("fox")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "1 of 2" } && $0.contains { $0.role == "label" && $0.name == "page 3 of 3" } }
        #expect(bed.press("Highlight"))
        tree = bed.waitForAccessible(Self.label("Highlighted on page 3"))
        #expect(Self.label("Highlighted on page 3 · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let done = tree.first { $0.role == "push button" && $0.name == "Done" }
        #expect(done?.states.contains("sensitive") == false && done?.detail == "Cannot save: the file is read-only", "\(String(describing: done))")
        // Save a Copy…: GTK's file chooser, in the file's folder with a name of its own; the copy
        // has the highlight, the read-only file stays as it was.
        let before = try bytes(readOnly)
        #expect(bed.press("Save a Copy…"))
        // (GTK 4.8 names the chooser's button "_Save Save" to AT-SPI: Enter in its Name field, as a person does.)
        tree = bed.waitForAccessible(timeout: 30) { $0.contains { $0.role == "text" && $0.name == "Name:" && $0.states.contains("focused") } }
        #expect(tree.contains { $0.role == "text" && $0.name == "Name:" && $0.states.contains("focused") }, "the chooser is open")
        bed.key("Return")
        let copy = harness.directory.file("read-only (marked).pdf")
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into a copy"))
        #expect(Self.label("Saved 1 change into a copy: \(copy)")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(annotations(copy, page: 2).map { $0["subtype"] as? String } == ["/Highlight"])
        #expect(try bytes(readOnly) == before && annotations(readOnly, page: 2).isEmpty, "the read-only file is untouched")
        bed.key("Escape", "Escape")
        #expect(second.waitForExit(timeout: 20))
    }

    /// An image in Markup: only Rotate Left/Right and Crop (no PDF tools); Rotate Right and Done
    /// turn a JPEG by its orientation tag alone (exiftool reads 6, the picture's bytes are the
    /// original's, the mode kept); Revert writes the original back; a box dragged with Crop is
    /// veiled around at once, and Done keeps only it (format.jpg: 300×200, left red, right blue).
    @Test func anImageTurnedAndCroppedInMarkupIsWrittenAgainAndRevertPutsItBack() throws {
        let bed = harness.bed
        let path = try copy("format.jpg", to: "photo.jpg")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let original = try bytes(path)
        let viewer = try harness.look([path], ProcessInfo.processInfo.environment, [:])
        defer { harness.finish(viewer) }
        let window = try #require(bed.waitForWindow(named: "^photo\\.jpg$"), "\(viewer.errorOutput)")
        let ready = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Markup" && $0.states.contains("sensitive") } }
        #expect(ready.contains { $0.role == "push button" && $0.name == "Markup" && $0.states.contains("sensitive") }, "Markup is offered for a JPEG")
        bed.key("ctrl+shift+a")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "toggle button" && $0.name == "Crop" && $0.states.contains("visible") } }
        #expect(tree.contains { $0.name == "Crop" && $0.states.contains("visible") }, "\(tree.filter { $0.name == "Crop" })")
        #expect(tree.contains { $0.name == "Rotate Right" && $0.states.contains("visible") })
        #expect(!tree.contains { $0.name == "Highlight" && $0.states.contains("visible") }, "no PDF tools over an image")
        #expect(!tree.contains { $0.name == "Draw" && $0.states.contains("visible") })

        #expect(bed.press("Rotate Right"))
        tree = bed.waitForAccessible(Self.label("The image turns right when saved"))
        #expect(Self.label("The image turns right when saved · 1 change not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(try bytes(path) == original, "nothing is written before Done")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into photo.jpg"))
        #expect(Self.label("Saved 1 change into photo.jpg")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let turned = try bytes(path)
        let scan = { (bytes: [UInt8]) -> ArraySlice<UInt8> in
            bytes[((2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA } ?? 0)...]
        }
        #expect(scan(turned) == scan(original) && turned != original, "the picture's bytes are the original's: only the tag changed")
        let orientation = ProcessRunner.run(["/usr/bin/exiftool", "-s3", "-n", "-Orientation", path], timeout: 60)
        #expect(String(decoding: orientation.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "6")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640, "the mode is kept")
        // Shown as saved: upright is now 200 wide, 300 high — red above blue.
        let shown = keep(try harness.screenshot("markup-image-turned", window: window) { shot in
            guard let red = shot.bounds(of: { r, g, b in r > 200 && g < 60 && b < 60 }),
                  let blue = shot.bounds(of: { r, g, b in b > 200 && r < 60 && g < 60 }) else { return false }
            return red.y + red.height <= blue.y + 2
        })
        let red = try #require(shown.bounds { r, g, b in r > 200 && g < 60 && b < 60 }), blue = try #require(shown.bounds { r, g, b in b > 200 && r < 60 && g < 60 })
        #expect(red.y + red.height <= blue.y + 2 && red.height > red.width / 2, "red above blue: \(red) \(blue) in \(shown.path)")

        #expect(bed.press("Revert"))
        tree = bed.waitForAccessible(Self.label("Reverted photo.jpg to its original bytes"))
        #expect(Self.label("Reverted photo.jpg")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(try bytes(path) == original, "Revert: byte for byte the original")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)

        // Crop: the right (blue) half dragged, from inside its top left to past its bottom right.
        let upright = keep(try harness.screenshot("markup-image-upright", window: window) { shot in
            guard let red = shot.bounds(of: { r, g, b in r > 200 && g < 60 && b < 60 }),
                  let blue = shot.bounds(of: { r, g, b in b > 200 && r < 60 && g < 60 }) else { return false }
            return red.x + red.width <= blue.x + 2
        })
        let left = try #require(upright.bounds { r, g, b in r > 200 && g < 60 && b < 60 })
        let right = try #require(upright.bounds { r, g, b in b > 200 && r < 60 && g < 60 })
        #expect(bed.press("Crop"))
        _ = bed.waitForAccessible(Self.label("Crop: drag a box"))
        let from = (right.x + 4, right.y + 4), to = (right.x + right.width + 20, right.y + right.height + 20)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(from.0)", "\(from.1)", "mousedown", "1",
                 "mousemove", "--window", window, "\(from.0 + 10)", "\(from.1 + 10)", "sleep", "0.1",
                 "mousemove", "--window", window, "\(to.0)", "\(to.1)", "sleep", "0.1", "mouseup", "1"])
        tree = bed.waitForAccessible(Self.label("Cropped to"))
        #expect(Self.label("Cropped to")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        // Veiled at once: the red half is dark now.
        let veiled = keep(try harness.screenshot("markup-image-crop", window: window) { $0.count { r, g, b in r > 200 && g < 60 && b < 60 } < 20 })
        #expect(veiled.count { r, g, b in r > 200 && g < 60 && b < 60 } < 20, "the part cropped away is veiled: \(veiled.path) (red half was \(left))")
        #expect(veiled.count { r, g, b in b > 200 && r < 60 && g < 60 } > right.width * right.height / 2, "the box kept is not")
        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 1 change into photo.jpg"))
        #expect(Self.label("Saved 1 change into photo.jpg")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let size = ProcessRunner.run(["/usr/bin/exiftool", "-s3", "-ImageSize", path], timeout: 60)
        let dimensions = String(decoding: size.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = dimensions.split(separator: "x").compactMap { Int($0) }
        #expect(parts.count == 2 && (135...150).contains(parts[0]) && (185...200).contains(parts[1]), "the blue half, from a few pixels in: \(dimensions)")
        let cropped = keep(try harness.screenshot("markup-image-cropped", window: window) { $0.count { r, g, b in b > 200 && r < 60 && g < 60 } > 1000 })
        #expect(cropped.count { r, g, b in r > 200 && g < 60 && b < 60 } < 20, "no red left in the file shown: \(cropped.path)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
