import Quire
import QuireRenderService
import Testing
@testable import QuireViewer

/// The window's pending markup (issue 36): undo and redo, what Done asks the worker for, and a
/// selection's character boxes made one box a line (a highlight's QuadPoints).
@Suite struct DocumentMarkupTests {
    static let box = TextBox(x: 10, y: 20, width: 30, height: 12)

    @Test func undoAndRedoWalkTheChangesAndANewChangeEndsRedo() {
        var markup = DocumentMarkup()
        #expect(!markup.canUndo && markup.undo() == nil)
        let highlight = DocumentMarkup.Change.annotation(PageAnnotation(kind: .highlight, page: 0, boxes: [Self.box]))
        let square = DocumentMarkup.Change.annotation(PageAnnotation(kind: .square, page: 1, boxes: [Self.box]))
        markup.add(highlight)
        markup.add(square)
        #expect(markup.undo() == square && markup.pending == [highlight] && markup.canRedo)
        #expect(markup.annotations(onPage: 1).isEmpty)
        #expect(markup.redo() == square && markup.annotations(onPage: 1).map(\.kind) == [.square])
        #expect(markup.undo() == square)
        markup.add(.turn(page: 0, quarterTurns: 1))
        #expect(!markup.canRedo && markup.redo() == nil, "a new change ends what could be redone")
        markup.clear()
        #expect(!markup.hasPending && !markup.canUndo)
    }

    @Test func doneAsksForTheAnnotationsInOrderAndEachPagesTurnsSummed() {
        var markup = DocumentMarkup()
        markup.add(.turn(page: 2, quarterTurns: 1))
        markup.add(.annotation(PageAnnotation(kind: .line, page: 0, boxes: [Self.box])))
        markup.add(.turn(page: 2, quarterTurns: 1))
        markup.add(.turn(page: 2, quarterTurns: 1))
        markup.add(.turn(page: 4, quarterTurns: -1))
        markup.add(.turn(page: 4, quarterTurns: 1))
        markup.add(.turn(page: 5, quarterTurns: 1))
        markup.add(.turn(page: 5, quarterTurns: 1))
        markup.add(.annotation(PageAnnotation(kind: .note, page: 1, boxes: [Self.box], text: "here")))
        let changes = markup.changes
        #expect(changes.annotations.map(\.kind) == [.line, .note])
        #expect(changes.turns == [2: -1, 5: 2], "three right turns are one left; right then left is none")
        #expect(markup.turn(ofPage: 2) == 3 && markup.turn(ofPage: 4) == 0 && markup.turn(ofPage: 5) == 2)
    }

    /// A drawing moved, resized from its corner and moved again is one change for Done: the
    /// moves add up, the scales multiply, and the box as shown follows each step.
    @Test func movesAndResizesOfOneAnnotationAreOneChange() {
        var markup = DocumentMarkup()
        let steps = [AnnotationMove(page: 0, index: 3, kind: "Rectangle", dx: 10, dy: -5),
                     AnnotationMove(page: 0, index: 3, kind: "Rectangle", dx: 0, dy: 0, scaleX: 2, scaleY: 0.5),
                     AnnotationMove(page: 0, index: 3, kind: "Rectangle", dx: 4, dy: 6),
                     AnnotationMove(page: 1, index: 3, kind: "Drawing", dx: 1, dy: 1)]
        for step in steps { markup.add(.move(step)) }
        let shown = try? #require(markup.moves(onPage: 0)[3])
        #expect(shown?.placing(Self.box) == TextBox(x: 24, y: 21, width: 60, height: 6))
        #expect(markup.changes.moves == [AnnotationMove(page: 0, index: 3, kind: "Rectangle", dx: 14, dy: 1, scaleX: 2, scaleY: 0.5),
                                         steps[3]])
        markup.undo()
        markup.undo()
        #expect(markup.moves(onPage: 0)[3]?.placing(Self.box) == TextBox(x: 20, y: 15, width: 60, height: 6), "undone: the move after the resize")
    }

    @Test func characterBoxesBecomeOneBoxALine() {
        let first = (0..<5).map { TextBox(x: 72 + Double($0) * 6, y: 78, width: 6, height: 10) }
        let lineEnd = TextBox(x: 102, y: 78, width: 0, height: 10)
        let second = (0..<3).map { TextBox(x: 72 + Double($0) * 6, y: 92.5, width: 6, height: 11) }
        let lines = DocumentMarkup.lineBoxes(first + [lineEnd] + second)
        #expect(lines == [TextBox(x: 72, y: 78, width: 30, height: 10), TextBox(x: 72, y: 92.5, width: 18, height: 11)])
        #expect(DocumentMarkup.lineBoxes([]).isEmpty)
    }
}
