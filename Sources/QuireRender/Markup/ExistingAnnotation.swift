/// An annotation already in a PDF, as a viewer shows it to be selected and removed (Markup):
/// its place in its page's list (poppler's order, which is the page's `/Annots` order), what
/// kind it is in a person's words (which decides what Markup may do with it), where it is on
/// the page as shown (points from the top left, the page's rotation applied, as
/// ``PageTextLayout``'s boxes), and its text.
public struct ExistingAnnotation: Sendable, Hashable {
    /// Its place among the page's annotations, from 0.
    public var index: Int
    /// "Highlight", "Note", "Text Box", "Drawing", "Form Field"…
    public var kind: String
    public var box: TextBox
    /// Its text (a note's, a text box's, a comment), nil without one.
    public var text: String?
    public init(index: Int, kind: String, box: TextBox, text: String?) {
        self.index = index
        self.kind = kind
        self.box = box
        self.text = text
    }

    /// Whether a click in Markup selects it: not a link (a click follows it) or a pop-up (it
    /// belongs to its annotation).
    public var isSelectable: Bool { kind != "Link" && kind != "Pop-up" }
    /// Whether Markup removes it (``isRemovable(kind:)``).
    public var isRemovable: Bool { Self.isRemovable(kind: kind) }
    /// Whether Markup moves it (``isMovable(kind:)``).
    public var isMovable: Bool { Self.isMovable(kind: kind) }
    /// Whether Markup resizes it (``isResizable(kind:)``).
    public var isResizable: Bool { Self.isResizable(kind: kind) }

    /// False for what Markup does not remove: links, form fields and pop-ups (a pop-up goes
    /// with the annotation it belongs to).
    public static func isRemovable(kind: String) -> Bool { !["Link", "Form Field", "Pop-up"].contains(kind) }

    /// A removable annotation that is not text markup (a highlight belongs to the words under it).
    public static func isMovable(kind: String) -> Bool {
        isRemovable(kind: kind) && !["Highlight", "Underline", "Squiggly Underline", "Strike Through"].contains(kind)
    }

    /// The drawings: shapes, lines, freehand strokes and stamps (a signature is a drawing or a
    /// stamp), whose appearance stretches to a new size — not an icon of a size of its own (a
    /// note, an attachment, a caret) or a text box (its letters would stretch).
    public static func isResizable(kind: String) -> Bool {
        ["Line", "Rectangle", "Oval", "Polygon", "Polyline", "Stamp", "Drawing"].contains(kind)
    }

    /// An annotation's kind in a person's words, from its `/Subtype` (without the slash).
    public static func kind(subtype: String) -> String {
        switch subtype {
        case "Text": "Note"
        case "Link": "Link"
        case "FreeText": "Text Box"
        case "Line": "Line"
        case "Square": "Rectangle"
        case "Circle": "Oval"
        case "Polygon": "Polygon"
        case "PolyLine": "Polyline"
        case "Highlight": "Highlight"
        case "Underline": "Underline"
        case "Squiggly": "Squiggly Underline"
        case "StrikeOut": "Strike Through"
        case "Stamp": "Stamp"
        case "Caret": "Caret"
        case "Ink": "Drawing"
        case "Popup": "Pop-up"
        case "FileAttachment": "Attachment"
        case "Sound": "Sound"
        case "Movie": "Movie"
        case "Widget": "Form Field"
        case "Screen": "Screen"
        case "Watermark": "Watermark"
        default: "Annotation"
        }
    }
}
