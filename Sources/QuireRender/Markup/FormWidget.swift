/// Where a form field is on a page, for a viewer that fills it in place (issue 36: fields live
/// in the window): the field as it is now, the widget's box on the page as shown (points from
/// the top left, the page's rotation applied), and — for a radio button or a check box — the
/// value a click on this widget gives the field.
public struct FormWidget: Sendable, Hashable {
    public var field: FormField
    public var box: TextBox
    /// A radio button's choice (its export name or position), a check box's `on`; nil otherwise.
    public var state: String?

    public init(field: FormField, box: TextBox, state: String? = nil) {
        self.field = field
        self.box = box
        self.state = state
    }

    /// Whether a person can change this widget's field here (not read-only; a kind with a value).
    public var isFillable: Bool {
        !field.isReadOnly && [.text, .checkbox, .radio, .combo, .list].contains(field.kind)
    }
}
