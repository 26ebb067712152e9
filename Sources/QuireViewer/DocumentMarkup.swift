import Quire
import QuireRenderService

/// What a person has marked on a PDF in a viewer's Markup and not yet saved (Done): annotations
/// added and removed, and page turns, in the order they were made, with undo and redo. Nothing here touches the
/// file: Done hands ``changes`` to the worker (``MarkupSaving``). Geometry is in page points
/// from the top left as the page is shown, as the worker's text layout gives it.
public struct DocumentMarkup: Sendable, Hashable {
    /// One change, as the person made it.
    public enum Change: Sendable, Hashable {
        case annotation(PageAnnotation)
        /// Page `page` (0-based) turned a quarter clockwise (1) or anticlockwise (-1).
        case turn(page: Int, quarterTurns: Int)
        /// An annotation already in the file removed (``ExistingAnnotation``).
        case removal(AnnotationRemoval)
        /// An annotation already in the file moved (dragged with Select).
        case move(AnnotationMove)
        /// An image cut to `box` (pixels from its top left as shown); the last crop counts.
        case crop(TextBox)
        /// A form field given a value (in the form's words, ``FormField``); its last value counts.
        case formValue(name: String, value: String)
    }

    /// The changes not yet saved, oldest first.
    public private(set) var pending: [Change] = []
    /// Changes undone, the most recently undone last (redo takes it back).
    private var undone: [Change] = []

    public init() {}

    public var hasPending: Bool { !pending.isEmpty }
    public var canUndo: Bool { !pending.isEmpty }
    public var canRedo: Bool { !undone.isEmpty }

    /// Adds a change; what was undone before it can no longer be redone.
    public mutating func add(_ change: Change) {
        pending.append(change)
        undone = []
    }

    /// Takes the last change back; the change, nil when there was none.
    @discardableResult public mutating func undo() -> Change? {
        guard let change = pending.popLast() else { return nil }
        undone.append(change)
        return change
    }

    /// Makes the change last undone again; the change, nil when there was none.
    @discardableResult public mutating func redo() -> Change? {
        guard let change = undone.popLast() else { return nil }
        pending.append(change)
        return change
    }

    /// Forgets every change (they were saved, or dropped by Revert).
    public mutating func clear() {
        pending = []
        undone = []
    }

    /// The annotations waiting for page `page`, oldest first (drawn over the page).
    public func annotations(onPage page: Int) -> [PageAnnotation] {
        pending.compactMap { change in
            if case .annotation(let annotation) = change, annotation.page == page { return annotation }
            return nil
        }
    }

    /// The annotations of page `page` already in the file that are to be removed, by their index.
    public func removals(onPage page: Int) -> Set<Int> {
        Set(pending.compactMap { change in
            if case .removal(let removal) = change, removal.page == page { return removal.index }
            return nil
        })
    }

    /// How each annotation of page `page` already in the file has been moved and resized (the
    /// changes one after another as one), by its index.
    public func moves(onPage page: Int) -> [Int: AnnotationMove] {
        var moved: [Int: AnnotationMove] = [:]
        for change in pending {
            if case .move(let move) = change, move.page == page {
                moved[move.index] = moved[move.index].map { $0.followed(by: move) } ?? move
            }
        }
        return moved
    }

    /// Quarter turns clockwise waiting for page `page` (0…3).
    public func turn(ofPage page: Int) -> Int {
        let total = pending.reduce(0) { sum, change in
            if case .turn(page, let quarterTurns) = change { return sum + quarterTurns }
            return sum
        }
        return ((total % 4) + 4) % 4
    }

    /// The value waiting for form field `name` (the last one given), nil for none.
    public func formValue(_ name: String) -> String? {
        for change in pending.reversed() { if case .formValue(name, let value) = change { return value } }
        return nil
    }

    /// The crop waiting for an image (the last one made), nil for none.
    public var crop: TextBox? {
        for change in pending.reversed() { if case .crop(let box) = change { return box } }
        return nil
    }

    /// What the worker is asked to save: the annotations in order, each page's turns summed
    /// (a page turned right and back left is not turned at all), an image's last crop.
    public var changes: DocumentChanges {
        var annotations: [PageAnnotation] = []
        var turns: [Int: Int] = [:]
        var removals: [AnnotationRemoval] = []
        var moves: [AnnotationMove] = []
        var formValues: [DocumentChanges.FormValue] = []
        for change in pending {
            switch change {
            case .move(let move):
                if let at = moves.firstIndex(where: { $0.page == move.page && $0.index == move.index }) {
                    moves[at] = moves[at].followed(by: move)
                } else {
                    moves.append(move)
                }
            case .annotation(let annotation): annotations.append(annotation)
            case .turn(let page, let quarterTurns): turns[page, default: 0] += quarterTurns
            case .removal(let removal) where !removals.contains(removal): removals.append(removal)
            case .removal, .crop: break
            case .formValue(let name, let value):
                if let at = formValues.firstIndex(where: { $0.name == name }) {
                    formValues[at].value = value
                } else {
                    formValues.append(DocumentChanges.FormValue(name: name, value: value))
                }
            }
        }
        // Three turns right are one left.
        turns = turns.mapValues { total -> Int in
            let quarters = ((total % 4) + 4) % 4
            return quarters == 3 ? -1 : quarters
        }.filter { $0.value != 0 }
        return DocumentChanges(formValues: formValues, annotations: annotations, turns: turns, removals: removals, moves: moves, crop: crop)
    }

    /// One box per line of marked text from the boxes of its characters (a highlight's
    /// QuadPoints: one quadrilateral a line, not one a letter). Characters follow each other on
    /// a line while they overlap its height by half; a box without width (a line end) is left out.
    public static func lineBoxes(_ boxes: [TextBox]) -> [TextBox] {
        var lines: [TextBox] = []
        for box in boxes where box.width > 0 && box.height > 0 {
            if let last = lines.last {
                let overlap = min(last.maxY, box.maxY) - max(last.y, box.y)
                if overlap >= min(last.height, box.height) / 2 {
                    let x = min(last.x, box.x), y = min(last.y, box.y)
                    lines[lines.count - 1] = TextBox(x: x, y: y, width: max(last.maxX, box.maxX) - x, height: max(last.maxY, box.maxY) - y)
                    continue
                }
            }
            lines.append(box)
        }
        return lines
    }
}
