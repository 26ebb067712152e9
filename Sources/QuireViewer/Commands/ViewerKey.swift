/// A key as the viewer-command table names it, the same for the window and the terminal: a
/// base key and its modifiers. A character key is case-sensitive ("n" and "N" are two keys), so
/// Shift is spelt only for keys that have no case (arrows, function keys).
public struct ViewerKey: Hashable, Sendable {
    public enum Base: Hashable, Sendable {
        case character(Character)
        case space, enter, escape, tab
        case up, down, left, right, pageUp, pageDown, home, end, delete
        case function(Int)
    }

    public let base: Base
    public let control: Bool
    public let shift: Bool

    public init(_ base: Base, control: Bool = false, shift: Bool = false) {
        self.base = base
        self.control = control
        self.shift = shift
    }

    public static func character(_ character: Character, control: Bool = false) -> ViewerKey {
        ViewerKey(.character(character), control: control)
    }

    /// How help texts write the key: "Ctrl+F", "Shift+F3", "PgDn", "Left", "g" (plain ASCII: man pages keep nothing else).
    public var label: String {
        let name: String
        switch base {
        case .character(let character):
            // Ctrl+Shift+C is the control key on "C"; Ctrl+c is written Ctrl+C, as menus do.
            if control && character.isUppercase { return "Ctrl+Shift+" + String(character) }
            name = control ? String(character).uppercased() : String(character)
        case .space: name = "Space"
        case .enter: name = "Enter"
        case .escape: name = "Esc"
        case .tab: name = "Tab"
        case .up: name = "Up"
        case .down: name = "Down"
        case .left: name = "Left"
        case .right: name = "Right"
        case .pageUp: name = "PgUp"
        case .pageDown: name = "PgDn"
        case .home: name = "Home"
        case .end: name = "End"
        case .delete: name = "Delete"
        case .function(let number): name = "F\(number)"
        }
        return (control ? "Ctrl+" : "") + (shift ? "Shift+" : "") + name
    }
}
