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
        #expect(throws: ViewerProblem.self) { try again.get() }
    }
}
