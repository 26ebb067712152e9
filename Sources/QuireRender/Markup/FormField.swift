/// One field of a PDF form (AcroForm) as a person fills it: its fully qualified name, what kind
/// of control it is, its value, the values it offers and whether it may be changed.
///
/// Values are text: a text field's text, a choice's selected item, a check box's `on` or `off`,
/// a radio group's chosen button (its export name; its position, `1`, `2`…, where the buttons
/// have none) or `off`.
public struct FormField: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case text
        case checkbox
        case radio
        case pushButton = "push-button"
        case combo
        case list
        case signature
        case unknown
    }

    public var name: String
    public var kind: Kind
    /// Nil when the field has no value (an empty text field, a choice with nothing selected).
    public var value: String?
    /// What a choice, check box or radio group accepts; empty for text.
    public var choices: [String]
    public var isReadOnly: Bool
    /// The 1-based page its first widget is on.
    public var page: Int
    /// A combo box that also takes text of its own.
    public var isEditable: Bool

    public init(name: String, kind: Kind, value: String?, choices: [String], isReadOnly: Bool, page: Int, isEditable: Bool = false) {
        self.name = name
        self.kind = kind
        self.value = value
        self.choices = choices
        self.isReadOnly = isReadOnly
        self.page = page
        self.isEditable = isEditable
    }

    /// The words a check box takes for on and off.
    public static let onWords: Set<String> = ["on", "yes", "true", "1", "checked", "x"]
    public static let offWords: Set<String> = ["off", "no", "false", "0", "unchecked", ""]
}

/// A form as the worker found it: its fields, and whether it can be filled at all.
public struct FormFacts: Sendable, Hashable {
    public var fields: [FormField]
    /// The form is XFA only (its AcroForm has no fields): not supported.
    public var isXFAOnly: Bool
    /// Nil when the document lets its form be filled; else why not (its permissions).
    public var fillingForbidden: String?

    public init(fields: [FormField], isXFAOnly: Bool, fillingForbidden: String?) {
        self.fields = fields
        self.isXFAOnly = isXFAOnly
        self.fillingForbidden = fillingForbidden
    }
}

/// A value a form cannot take (an unknown field, a choice it does not offer, a read-only or
/// signature field), in one line naming the field.
public struct FormValueError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
