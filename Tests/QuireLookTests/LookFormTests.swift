import Foundation
import QuireTestSupport
import Testing

/// A PDF's form filled in the window (issue 36: fields live whether Markup is on or not; Tab
/// moves between them), under Xvfb as a person does it: a click in a text field opens its editor,
/// typing and Tab go from field to field (past the read-only one), a check box is ticked from
/// the keyboard, a radio button clicked on the page; the values are drawn at once, Done saves
/// them into the form as an incremental update (`quire form` reads them back), Revert puts the
/// original back. forms/form.pdf: ReportLab's fields on one A4 page.
@Suite("quire look form filling (Xvfb)")
final class LookFormTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-form")
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func label(_ prefix: String) -> ([WindowTestBed.Accessible]) -> Bool {
        { tree in tree.contains { $0.role == "label" && $0.name.hasPrefix(prefix) } }
    }

    /// `quire form FILE --json`: each field's value by name.
    func values(_ path: String) throws -> [String: String] {
        let result = QuireBinary.run(["form", path, "--json"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [String: Any])
        let fields = try #require(object["fields"] as? [[String: Any]])
        return Dictionary(fields.compactMap { field in (field["name"] as? String).map { ($0, field["value"] as? String ?? "") } },
                          uniquingKeysWith: { first, _ in first })
    }

    /// Kept in `$QUIRE_MARKUP_SCREENSHOTS` when set (to look at them).
    func keep(_ shot: Screenshot) -> Screenshot { shot.kept(inFolder: "QUIRE_MARKUP_SCREENSHOTS") }

    @Test func fieldsAreFilledInPlaceTabGoesFromFieldToFieldAndDoneSavesThem() throws {
        let bed = harness.bed
        let path = harness.directory.file("form.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("forms/form.pdf"), toPath: path)
        let original = try bytes(path)
        let viewer = try harness.look([path], ProcessInfo.processInfo.environment, [:])
        defer { harness.finish(viewer) }
        let window = try #require(bed.waitForWindow(named: "^form\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 1" } }
        // The fields that can be filled are tinted blue once the page's text (and fields) came.
        let tinted = keep(try harness.screenshot("form-page", window: window) { $0.count { r, g, b in b > 230 && r < 235 && r > 170 && b > r + 12 } > 2000 })
        #expect(tinted.count { r, g, b in b > 230 && r < 235 && r > 170 && b > r + 12 } > 2000, "the fields are tinted: \(tinted.path)")
        let page = try #require(LookSelectionTests.pageRectangle(tinted), "the page in \(tinted.path)")

        // A click in the Name field (160…460 × 63…87 pt from the top) opens its editor.
        let name = LookSelectionTests.windowPoint(page, x: 300, y: 75)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(name.0)", "\(name.1)", "click", "1"])
        var tree = bed.waitForAccessible { $0.contains { $0.name == "name" && $0.states.contains("focused") } }
        #expect(tree.contains { $0.name == "name" && $0.states.contains("focused") }, "the name field's editor has the keyboard: \(tree.filter { $0.name == "name" })")
        bed.type("Ada Lovelace")
        bed.key("Tab")
        tree = bed.waitForAccessible { $0.contains { $0.name == "email" && $0.states.contains("focused") } }
        #expect(tree.contains { $0.name == "email" && $0.states.contains("focused") }, "Tab goes on to the email field")
        #expect(Self.label("Field name set to “Ada Lovelace”")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        bed.type("ada@example.org")
        // The editor at the field: its name, the entry, the keys it takes.
        let editor = keep(try harness.screenshot("form-editor", window: window) { $0.count { r, g, b in r < 90 && g < 90 && b < 90 } > 50 })
        #expect(editor.count { r, g, b in r < 90 && g < 90 && b < 90 } > 50, "\(editor.path)")
        // Tab passes the read-only reference field and reaches the check box: Space ticks it.
        bed.key("Tab")
        tree = bed.waitForAccessible { $0.contains { $0.role == "check box" && $0.name == "agree" && $0.states.contains("focused") } }
        #expect(tree.contains { $0.role == "check box" && $0.name == "agree" && $0.states.contains("focused") },
                "\(tree.filter { $0.name == "agree" || $0.name == "reference" })")
        bed.key("space")
        tree = bed.waitForAccessible(Self.label("Field agree set to “on”"))
        #expect(Self.label("Field agree set to “on”")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        bed.key("Escape")
        // The Markup bar came with the first value (Done, Undo, Revert): the page moved down.
        let moved = keep(try harness.screenshot("form-bar", window: window) { LookSelectionTests.pageRectangle($0)?.top != page.top })
        let shown = try #require(LookSelectionTests.pageRectangle(moved), "the page in \(moved.path)")
        // A radio button clicked on the page: "large" (280…300 × 237…257 pt).
        let large = LookSelectionTests.windowPoint(shown, x: 290, y: 247)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(large.0)", "\(large.1)", "click", "1"])
        tree = bed.waitForAccessible(Self.label("Field size set to “large”"))
        #expect(Self.label("Field size set to “large” · 4 changes not saved")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(try bytes(path) == original, "nothing is written before Done")
        #expect(tree.contains { $0.role == "push button" && $0.name == "Save a Copy…" && $0.states.contains("visible") && $0.states.contains("sensitive") },
                "Save a Copy… is always on the bar")
        // Drawn at once: dark letters in the name field's box.
        let shot = keep(try harness.screenshot("form-filled", window: window) { _ in true })
        let box = LookSelectionTests.windowPoint(shown, x: 160, y: 63), end = LookSelectionTests.windowPoint(shown, x: 460, y: 87)
        let letters = shot.count(in: .init(x: box.0, y: box.1, width: end.0 - box.0, height: end.1 - box.1)) { r, g, b in r < 90 && g < 90 && b < 90 }
        #expect(letters > 30, "the typed name is drawn in its field: \(letters) dark pixels in \(shot.path)")

        #expect(bed.press("Done"))
        tree = bed.waitForAccessible(timeout: 60, Self.label("Saved 4 changes into form.pdf"))
        #expect(Self.label("Saved 4 changes into form.pdf")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        let saved = try bytes(path)
        #expect(saved.count > original.count && Array(saved.prefix(original.count)) == original, "an incremental update: the original bytes first")
        let values = try values(path)
        #expect(values["name"] == "Ada Lovelace" && values["email"] == "ada@example.org", "\(values)")
        #expect(values["agree"] == "on" && values["size"] == "large" && values["reference"] == "Q-17", "\(values)")
        let raster = try #require(PDFPageRaster(path, in: harness.directory.path), "pdftoppm drew \(path)")
        #expect(raster.count(x: 160, y: 63, width: 300, height: 24) { r, g, b in r < 90 && g < 90 && b < 90 } > 30,
                "the value has an appearance stream pdftoppm draws")

        #expect(bed.press("Revert"))
        _ = bed.waitForAccessible(Self.label("Reverted form.pdf to its original bytes"))
        #expect(try bytes(path) == original, "Revert: byte for byte the original")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// An XFA-only form (no AcroForm fields) says so in the status line once page 1 is shown.
    @Test func anXFAOnlyFormSaysItCannotBeFilled() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("forms/xfa-only.pdf")], ProcessInfo.processInfo.environment, [:])
        defer { harness.finish(viewer) }
        _ = try #require(bed.waitForWindow(named: "xfa-only\\.pdf|XFA"), "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible(Self.label("This PDF's form is XFA only"))
        #expect(Self.label("This PDF's form is XFA only, which Quire cannot fill")(tree), "\(tree.filter { $0.role == "label" }.map(\.name))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
