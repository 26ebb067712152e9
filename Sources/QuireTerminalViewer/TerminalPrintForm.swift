import QuireTerminal
import QuireViewer

/// The inline print form of the terminal viewer: which field has the focus and the last
/// error. What the fields hold and mean, and which values are refused, is the ``PrintSheet``'s
/// (the window's sheet uses the same rules): copies take digits only, Pages is a choice of all,
/// the current page or a range (←/→), and a range chosen but empty cannot be sent.
final class TerminalPrintForm {
    let sheet: PrintSheet
    var focus: PrintSheet.Field = .printer {
        didSet { if focus != oldValue { replacesOnType = true } }
    }
    var error: String?
    /// The first digit typed into a field just reached replaces what it holds (as a GTK entry
    /// selects its text on focus), so "Tab 2" gives 2 copies, not 12.
    private var replacesOnType = true

    init(sheet: PrintSheet) {
        self.sheet = sheet
    }

    func moveFocus(_ step: Int) {
        let fields = sheet.fields
        let index = fields.firstIndex(of: focus) ?? 0
        focus = fields[(index + step + fields.count) % fields.count]
    }

    /// The page choices ←/→ step through (the current page only when the sheet knows it).
    private var pageChoices: [PrintSheet.PageChoice] {
        PrintSheet.PageChoice.allCases.filter { $0 != .current || sheet.currentPage != nil }
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
            case .pages:
                let choices = pageChoices
                let index = choices.firstIndex(of: sheet.pageChoice) ?? 0
                sheet.pageChoice = choices[(index + step + choices.count) % choices.count]
                replacesOnType = sheet.pageChoice != .range
            case .paper: sheet.cyclePaper(step: step)
            case .saveAsPDF: sheet.saveAsPDF = sheet.saveAsPDF == nil ? sheet.defaultPDFPath : nil
            default:
                guard let choice = focus.choice else { return false }
                sheet.cycle(choice, step: step)
            }
        case .backspace:
            if focus == .copies, !sheet.copiesText.isEmpty { sheet.copiesText.removeLast() }
            if focus == .pages, sheet.pageChoice == .range, !sheet.pagesText.isEmpty { sheet.pagesText.removeLast() }
            replacesOnType = false
        case .character(let character):
            if focus == .copies, PrintSheet.isCopiesInput(String(character)) {
                if replacesOnType { sheet.copiesText = "" }
                guard sheet.copiesText.count < 6 else { return true }
                sheet.copiesText.append(character)
            } else if focus == .pages, PrintSheet.isPagesInput(character) {
                if replacesOnType || sheet.pageChoice != .range { sheet.pagesText = "" }
                sheet.pageChoice = .range
                guard sheet.pagesText.count < 60 else { return true }
                sheet.pagesText.append(character)
            } else {
                // Letters and punctuation never reach a field: nothing is shown that would not be sent.
                return false
            }
            replacesOnType = false
        default:
            return false
        }
        error = nil
        return true
    }

    /// The Pages field's text: the choice, or the range as typed.
    private var pagesShown: String {
        switch sheet.pageChoice {
        case .all: return sheet.pageCount.map { "all \($0) page\($0 == 1 ? "" : "s")" } ?? "all pages"
        case .current: return "current page (\(sheet.currentPage ?? 1))"
        case .range: return sheet.pagesText.isEmpty ? " " : sheet.pagesText
        }
    }

    /// The form's rows (without styling beyond SGR), at most `width` characters wide.
    func lines(width: Int) -> [String] {
        func marker(_ field: PrintSheet.Field) -> String { focus == field ? "\u{1B}[1m▶ " : "  " }
        func value(_ text: String, _ field: PrintSheet.Field) -> String {
            focus == field ? "\u{1B}[7m \(text) \u{1B}[0m" : "[\(text)]"
        }
        var rows: [String] = []
        rows.append("\u{1B}[1mPrint \(TerminalText.shown(sheet.documentName))\u{1B}[0m")
        rows.append(marker(.printer) + "Printer\u{1B}[0m")
        for (index, printer) in sheet.printers.prefix(6).enumerated() {
            let chosen = index == sheet.selectedIndex
            let label = TerminalText.shown("\(chosen ? "◉" : "○") \(printer.name)\(printer.isDefault ? " (default)" : ""): \(printer.stateText)")
            rows.append("    " + (printer.isSelectable ? (chosen && focus == .printer ? "\u{1B}[7m\(label)\u{1B}[0m" : label)
                                                      : "\u{1B}[2m\(label) — not selectable\u{1B}[0m"))
        }
        let range = sheet.copiesRange
        // Each field's problem stands beside it; the last row repeats the first one after Enter.
        func beside(_ field: PrintSheet.Field, _ hint: String) -> String {
            if let problem = sheet.problem(in: field) { return "  \u{1B}[1;31m✗ \(TerminalText.shown(problem))\u{1B}[0m" }
            return "  \u{1B}[2m\(hint)\u{1B}[0m"
        }
        rows.append(marker(.copies) + "Copies\u{1B}[0m  " + value(sheet.copiesText.isEmpty ? " " : sheet.copiesText, .copies)
                    + beside(.copies, "\(range.lowerBound)–\(range.upperBound)"))
        let pagesHint = sheet.pageChoice == .range ? "e.g. 1-3,7 · ←/→ all, current" : "←/→ change · type a range"
        rows.append(marker(.pages) + "Pages\u{1B}[0m   " + value(pagesShown, .pages) + beside(.pages, pagesHint))
        if sheet.fields.contains(.sides) {
            rows.append(marker(.sides) + "Sides\u{1B}[0m   " + value(sheet.sides?.rawValue ?? "printer default", .sides) + "  ←/→ change")
        }
        if sheet.fields.contains(.colorMode) {
            rows.append(marker(.colorMode) + "Colour\u{1B}[0m  " + value(sheet.colorMode?.rawValue ?? "printer default", .colorMode) + "  ←/→ change")
        }
        let paper = sheet.paper?.displayName ?? sheet.defaultPaper.map { "printer default (\($0.displayName))" } ?? "printer default"
        rows.append(marker(.paper) + "Paper\u{1B}[0m   " + value(paper, .paper) + beside(.paper, "←/→ change"))
        // The sheet choices, as declared (``SheetOptions/choices``), where they apply.
        for field in sheet.fields {
            guard let choice = field.choice else { continue }
            let label = choice.shortLabel + String(repeating: " ", count: max(1, 8 - choice.shortLabel.count))
            rows.append(marker(field) + label + "\u{1B}[0m" + value(choice.value(in: sheet.chosen).shown.lowercased(), field)
                        + beside(field, "←/→ change"))
        }
        rows.append(marker(.saveAsPDF) + "Send to\u{1B}[0m " + value(sheet.saveAsPDF.map { "PDF file \($0)" } ?? "the printer", .saveAsPDF)
                    + "  ←/→ printer, Save as PDF")
        if let summary = sheet.summary {
            rows.append("  Will print: \(summary)" + (sheet.composes ? " (composed by Quire)" : ""))
        }
        if let note = sheet.bookletNote { rows.append("  \u{1B}[33m\(note)\u{1B}[0m") }
        if let error {
            rows.append("\u{1B}[1;31m✗ \(error)\u{1B}[0m")
        } else {
            rows.append("\u{1B}[2mTab next field · ←/→ choose · Enter print · Ctrl+R remember for this printer · Esc cancel\u{1B}[0m")
        }
        return rows
    }
}
