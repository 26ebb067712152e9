import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import Testing
@testable import QuireViewer

/// The model's side of the window's Markup (issue 36), with a real worker: whether a file may be
/// marked up comes from the worker, Done's save goes through a worker and lands in the file, and
/// a model reopened after it is shown the file as saved — the worker reads a file changed on
/// disk again instead of answering from the document it had open.
@Suite("Markup saved from the viewer model")
final class MarkupSavingTests {
    let directory = TemporaryDirectory("quire-markup-model")

    func copy(_ sample: String, to name: String) throws -> String {
        let path = directory.file(name)
        try FileManager.default.copyItem(atPath: Samples.path(sample), toPath: path)
        return path
    }

    @Test func theWorkerSaysWhichFilesMayBeMarkedUp() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("find-cases.pdf")), DocumentPath(Samples.path("forms/form-locked.pdf")),
                                        DocumentPath(Samples.path("hello.c"))],
                                configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        #expect(model.markupPermission == .allowed && model.commandContext.canMarkup)
        model.nextFile()
        #expect(model.markupPermission == .forbidden("the PDF's permissions do not allow adding annotations"))
        #expect(!model.commandContext.canMarkup)
        model.nextFile()
        #expect(model.markupPermission == nil && !model.commandContext.canMarkup, "text is not marked up")
    }

    @Test func aSavedTurnIsWhatTheReopenedModelShows() throws {
        let path = try copy("find-cases.pdf", to: "turned.pdf")
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        let before = try #require(model.pageSize(0))
        #expect(before.height > before.width, "A4 portrait")
        var markup = DocumentMarkup()
        markup.add(.turn(page: 0, quarterTurns: 1))
        markup.add(.annotation(PageAnnotation(kind: .square, page: 1, boxes: [TextBox(x: 50, y: 50, width: 100, height: 80)])))
        let original = try #require(model.openedFile)
        let result = MarkupSaving.save(markup.changes, request: model.saveRequest, original: original,
                                       worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60)
        let saved = try result.get()
        #expect(saved.originalSize == original.size && saved.writtenSize > original.size)
        // Reopened: the worker reads the file as it is now (page 1 landscape).
        model.reopen()
        let after = try #require(model.pageSize(0))
        #expect(after.width > after.height && abs(after.width - before.height) < 0.5, "\(before) → \(after)")
        #expect(model.openedFile?.size == saved.writtenSize, "the model holds the saved file")
        // Revert: the original bytes, and the model shows portrait again.
        #expect(MarkupSaving.revert(DocumentPath(path), to: saved) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == Int(original.size))
        model.reopen()
        let reverted = try #require(model.pageSize(0))
        #expect(reverted.height > reverted.width, "\(reverted)")
    }

    @Test func aFileChangedSinceItWasSavedIsNotReverted() throws {
        let path = try copy("find-cases.pdf", to: "changed.pdf")
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        let original = try #require(model.openedFile)
        var markup = DocumentMarkup()
        markup.add(.annotation(PageAnnotation(kind: .highlight, page: 0, boxes: [TextBox(x: 98, y: 78, width: 37, height: 10)])))
        let saved = try MarkupSaving.save(markup.changes, request: model.saveRequest, original: original,
                                          worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60).get()
        // Another program writes the file after the save.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("% appended\n".utf8))
        try handle.close()
        let length = try Data(contentsOf: URL(fileURLWithPath: path)).count
        #expect(MarkupSaving.revert(DocumentPath(path), to: saved)?.message == "the file changed on disk since it was saved; nothing was written")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == length, "nothing was written")
        // And a save against the model's old view of the file is refused too.
        let again = MarkupSaving.save(markup.changes, request: model.saveRequest, original: original,
                                      worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60)
        #expect(throws: RenderProblem.self) { try again.get() }
    }

    /// Images (Markup's Rotate and Crop): JPEG and PNG may be turned, other formats and
    /// animations say why not.
    @Test func theWorkerSaysWhichImagesMayBeTurnedAndCropped() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("photo.jpg")), DocumentPath(Samples.path("quadrants.png")),
                                        DocumentPath(Samples.path("format.gif")), DocumentPath(Samples.path("animations/animated.png"))],
                                configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        #expect(model.markupPermission == .allowed && model.commandContext.canMarkup && model.marksUpImage)
        model.nextFile()
        #expect(model.markupPermission == .allowed && model.marksUpImage)
        model.nextFile()
        #expect(model.markupPermission == .forbidden(ImageRewriting.refusal(mimeType: "image/gif")!))
        model.nextFile()
        #expect(model.markupPermission == .forbidden("an animated image cannot be turned or cropped"))
    }

    /// A JPEG turned right and saved in place: its picture's bytes unchanged (the orientation tag
    /// alone), its mode kept, shown turned when reopened; Revert writes the original back.
    @Test func aTurnedJPEGKeepsItsPictureAndRevertPutsTheOriginalBack() throws {
        let path = try copy("photo.jpg", to: "turned.jpg")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        #expect(model.pageSize(0).map { ($0.width, $0.height) } ?? (0, 0) == (80, 60))
        var markup = DocumentMarkup()
        markup.add(.turn(page: 0, quarterTurns: 1))
        markup.add(.turn(page: 0, quarterTurns: 1))
        markup.add(.turn(page: 0, quarterTurns: -1))
        let original = try #require(model.openedFile)
        let saved = try MarkupSaving.save(markup.changes, request: model.saveRequest, original: original,
                                          worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60).get()
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        let scan = { (data: Data) -> Data in data[(data.firstRange(of: Data([0xFF, 0xDA]))?.lowerBound ?? 0)...] }
        #expect(scan(after) == scan(before) && after != before, "the orientation tag changed, the picture did not")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640, "the mode is kept")
        model.reopen()
        #expect(model.pageSize(0).map { ($0.width, $0.height) } ?? (0, 0) == (60, 80), "shown turned")
        #expect(MarkupSaving.revert(DocumentPath(path), to: saved) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "Revert: byte for byte")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
    }

    /// A PNG cropped (the last crop counts) and turned: written again, the box kept.
    @Test func aCroppedPNGIsTheLastBoxKeptAndTurned() throws {
        let path = try copy("quadrants.png", to: "cropped.png")
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        var markup = DocumentMarkup()
        markup.add(.crop(TextBox(x: 0, y: 0, width: 10, height: 10)))
        markup.add(.crop(TextBox(x: 32, y: 0, width: 32, height: 24)))
        markup.add(.turn(page: 0, quarterTurns: -1))
        #expect(markup.changes.crop == TextBox(x: 32, y: 0, width: 32, height: 24) && markup.changes.turns == [0: -1])
        let original = try #require(model.openedFile)
        _ = try MarkupSaving.save(markup.changes, request: model.saveRequest, original: original,
                                  worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60).get()
        model.reopen()
        #expect(model.pageSize(0).map { ($0.width, $0.height) } ?? (0, 0) == (24, 32), "the green quadrant, turned left")
        // Annotations cannot go into an image: refused by the worker, nothing written.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var note = DocumentMarkup()
        note.add(.annotation(PageAnnotation(kind: .square, page: 0, boxes: [TextBox(x: 1, y: 1, width: 5, height: 5)])))
        let refused = MarkupSaving.save(note.changes, request: model.saveRequest, original: try #require(model.openedFile),
                                        worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60)
        #expect(throws: RenderProblem.self) { try refused.get() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    /// A PDF's form in the viewer (issue 36: fields live in the window): each page's text brings
    /// its widgets — the field, its box as shown, a button's own value — and values given in the
    /// markup are saved into the form, read back as the page's fields once the file is shown
    /// again (forms/form.pdf: ReportLab's fields on an A4 page, 841.89 pt high).
    @Test func aPagesFormWidgetsComeWithItsTextAndValuesGivenAreSaved() throws {
        let path = try copy("forms/form.pdf", to: "form.pdf")
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        let text = try model.waitForText(page: 0).get()
        let byName = Dictionary(grouping: text.fields, by: \.field.name)
        #expect(Set(byName.keys) == ["name", "email", "reference", "agree", "size", "colour", "fruit"], "\(byName.keys)")
        let name = try #require(byName["name"]?.first)
        // ReportLab's x 160, y 755, 300 × 24 (PDF space, y up) → from the top left.
        #expect(abs(name.box.x - 160) < 0.5 && abs(name.box.y - (841.89 - 779)) < 0.5 && abs(name.box.width - 300) < 0.5 && abs(name.box.height - 24) < 0.5,
                "\(text.fields.map { "\($0.field.name) \($0.box)" })")
        #expect(name.isFillable && name.field.kind == .text, "\(text.fields.map { "\($0.field.name) \($0.box)" })")
        #expect(byName["reference"]?.first?.isFillable == false, "read-only")
        let sizes = try #require(byName["size"])
        #expect(sizes.map(\.state) == ["small", "medium", "large"] && sizes.allSatisfy { $0.field.value == "medium" }, "\(sizes.map(\.state))")
        #expect(sizes.map { Int($0.box.x.rounded()) } == [160, 220, 280])
        #expect(byName["agree"]?.first?.state == "on" && byName["agree"]?.first?.field.value == "off")
        #expect(byName["colour"]?.first?.field.choices == ["Red", "Green", "Blue"])
        #expect(!text.formIsXFAOnly)
        let xfa = ViewerModel(paths: [DocumentPath(Samples.path("forms/xfa-only.pdf"))], configuration: RealWorkerConfiguration.make())
        defer { xfa.close() }
        let xfaText = try xfa.waitForText(page: 0).get()
        #expect(xfaText.formIsXFAOnly && xfaText.fields.isEmpty, "an XFA-only form is said to be one")

        var markup = DocumentMarkup()
        markup.add(.formValue(name: "name", value: "Ada"))
        markup.add(.formValue(name: "name", value: "Ada Lovelace"))
        markup.add(.formValue(name: "agree", value: "on"))
        markup.add(.formValue(name: "size", value: "large"))
        #expect(markup.formValue("name") == "Ada Lovelace" && markup.changes.formValues.count == 3)
        let original = try #require(model.openedFile)
        let saved = try MarkupSaving.save(markup.changes, request: model.saveRequest, original: original,
                                          worker: model.configuration.worker, sandbox: model.configuration.sandbox, timeout: 60).get()
        #expect(saved.originalSize == original.size && saved.writtenSize > original.size, "an incremental update")
        model.reopen()
        let after = try model.waitForText(page: 0).get()
        let values = Dictionary(after.fields.map { ($0.field.name, $0.field.value) }, uniquingKeysWith: { first, _ in first })
        #expect(values["name"] == "Ada Lovelace" && values["agree"] == "on" && values["size"] == "large", "\(values)")
    }

    /// On a page turned a quarter (`/Rotate 90`, qpdf), a field's box is where the turned page shows it.
    @Test func aFieldOnATurnedPageIsWhereThePageShowsIt() throws {
        let path = directory.file("turned-form.pdf")
        let result = ProcessRunner.run(["/usr/bin/qpdf", "--rotate=+90", Samples.path("forms/form.pdf"), path], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        let text = try model.waitForText(page: 0).get()
        let name = try #require(text.fields.first { $0.field.name == "name" })
        // Upright: 160, 62.89 from the top left, 300 × 24; turned right on an 841.89 × 595.28 view.
        #expect(abs(name.box.x - (841.89 - 62.89 - 24)) < 0.5 && abs(name.box.y - 160) < 0.5
                && abs(name.box.width - 24) < 0.5 && abs(name.box.height - 300) < 0.5, "\(name.box)")
    }
}
