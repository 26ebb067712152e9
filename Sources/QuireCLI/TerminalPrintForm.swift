import QuireTerminal
import QuireViewer

/// The inline print form of the terminal viewer: which field has the focus and the last
/// error. What the fields hold and mean is the ``PrintSheet``'s.
final class TerminalPrintForm {
    let sheet: PrintSheet
    var focus: PrintSheet.Field = .printer
    var error: String?

    init(sheet: PrintSheet) {
        self.sheet = sheet
    }

    func moveFocus(_ step: Int) {
        let fields = sheet.fields
        let index = fields.firstIndex(of: focus) ?? 0
        focus = fields[(index + step + fields.count) % fields.count]
    }

    /// Applies a key; returns false when the key is not the form's.
    func handle(_ key: TerminalKey) -> Bool {
        switch key {
        case .tab, .down: moveFocus(1)
        case .backTab, .up: moveFocus(-1)
        case .left, .right:
            let step = key == .right ? 1 : -1
            switch focus {
            case .printer: sheet.selectPrinter(step: step)
            case .sides: sheet.cycleSides(step: step)
            case .colorMode: sheet.cycleColorMode(step: step)
            case .copies, .pages: return false
            }
        case .backspace:
            if focus == .copies, !sheet.copiesText.isEmpty { sheet.copiesText.removeLast() }
            if focus == .pages, !sheet.pagesText.isEmpty { sheet.pagesText.removeLast() }
        case .character(let character):
            if focus == .copies, character.isASCII, character.isNumber, sheet.copiesText.count < 6 {
                sheet.copiesText.append(character)
            } else if focus == .pages, character.isASCII, character.isNumber || "-, ".contains(character),
                      sheet.pagesText.count < 60 {
                sheet.pagesText.append(character)
            } else {
                return false
            }
        default:
            return false
        }
        error = nil
        return true
    }

    /// The form's rows (without styling beyond SGR), at most `width` characters wide.
    func lines(width: Int) -> [String] {
        func marker(_ field: PrintSheet.Field) -> String { focus == field ? "\u{1B}[1m▶ " : "  " }
        func value(_ text: String, _ field: PrintSheet.Field) -> String {
            focus == field ? "\u{1B}[7m \(text) \u{1B}[0m" : "[\(text)]"
        }
        var rows: [String] = []
        rows.append("\u{1B}[1mPrint \(sheet.documentName)\u{1B}[0m")
        rows.append(marker(.printer) + "Printer\u{1B}[0m")
        for (index, printer) in sheet.printers.prefix(6).enumerated() {
            let chosen = index == sheet.selectedIndex
            let label = "\(chosen ? "◉" : "○") \(printer.name)\(printer.isDefault ? " (default)" : ""): \(printer.stateText)"
            rows.append("    " + (printer.isSelectable ? (chosen && focus == .printer ? "\u{1B}[7m\(label)\u{1B}[0m" : label)
                                                      : "\u{1B}[2m\(label) — not selectable\u{1B}[0m"))
        }
        let range = sheet.copiesRange
        rows.append(marker(.copies) + "Copies\u{1B}[0m  " + value(sheet.copiesText.isEmpty ? "1" : sheet.copiesText, .copies)
                    + "  \(range.lowerBound)–\(range.upperBound)")
        let all = sheet.pageCount.map { "all \($0) page\($0 == 1 ? "" : "s")" } ?? "all pages"
        rows.append(marker(.pages) + "Pages\u{1B}[0m   " + value(sheet.pagesText.isEmpty ? "all" : sheet.pagesText, .pages)
                    + "  e.g. 1-3,7 (\(all))")
        if sheet.fields.contains(.sides) {
            rows.append(marker(.sides) + "Sides\u{1B}[0m   " + value(sheet.sides?.rawValue ?? "printer default", .sides) + "  ←/→ change")
        }
        if sheet.fields.contains(.colorMode) {
            rows.append(marker(.colorMode) + "Colour\u{1B}[0m  " + value(sheet.colorMode?.rawValue ?? "printer default", .colorMode) + "  ←/→ change")
        }
        if let error {
            rows.append("\u{1B}[1;31m✗ \(error)\u{1B}[0m")
        } else {
            rows.append("\u{1B}[2mTab next field · ←/→ printer · Enter print · Esc cancel\u{1B}[0m")
        }
        return rows
    }
}
