import CGtk
import Quire
import QuireViewer

/// The Print sheet: a small window over the viewer with the printers and their state (stopped
/// ones listed but not selectable), copies, page range (All / Current page / ranges validated
/// inline), sides only for duplex printers, colour only for colour printers (both follow the
/// chosen printer), and a strip of the pages that will print; Print submits through the
/// model's ``PrintSheet`` (libcups) and shows "Sent to P — job N" in the sheet; a failure is
/// shown there too. Each field has a mnemonic (Alt+C copies, Alt+A/U/G pages, Alt+S two-sided,
/// Alt+O colour, Alt+I only print: all, odd or even sides) and its label names it for accessibility (labelled-by, not a second name).
///
/// What the sheet shows is what it sends: Copies takes digits only (anything else typed or
/// pasted never appears), choosing "Pages:" puts the cursor in its entry, and while a field
/// is empty or invalid its reason stands beside it and Print is disabled (the rules are the
/// model's, shared with the terminal form). The fields scroll; the status line and the
/// buttons below them stay in view whatever the queue or the printer names hold.
@MainActor
final class PrintSheetView {
    private let sheet: PrintSheet
    private let currentPage: Int
    let window: UnsafeMutablePointer<GtkWidget>
    private let printerList = gtk_list_box_new()!
    private let copies: UnsafeMutablePointer<GtkWidget>
    private let allPages = gtk_check_button_new_with_mnemonic("_All pages")!
    private let currentPageButton = gtk_check_button_new_with_mnemonic("C_urrent page")!
    private let rangeButton = gtk_check_button_new_with_mnemonic("Pa_ges:")!
    private let rangeEntry = gtk_entry_new()!
    /// Each field's problem, beside the field (hidden while there is none).
    private let copiesProblem = gtk_label_new(nil)!
    private let pagesProblem = gtk_label_new(nil)!
    private let sidesDropDown = gtk_drop_down_new(nil, nil)!
    private let sidesLabel = gtk_label_new_with_mnemonic("Two-_sided")!
    private let colorDropDown = gtk_drop_down_new(nil, nil)!
    private let colorLabel = gtk_label_new_with_mnemonic("C_olour")!
    /// What the drop-downs offer now (after "Printer default"), for the chosen printer.
    private var sidesShown: [PrintOptions.Sides] = []
    private var colorsShown: [PrintOptions.ColorMode] = []
    private let preview: PrintPreviewStrip
    // How pages go on sheets (composed by Quire; the preview shows the sides that will print).
    private let paperDropDown = gtk_drop_down_new(nil, nil)!
    private let paperLabel = gtk_label_new_with_mnemonic("Pape_r")!
    /// One control per sheet choice (``SheetOptions/choices``), in their order: a drop-down
    /// with its label, or a check button for a switch.
    private var choiceControls: [(choice: SheetChoice, label: UnsafeMutablePointer<GtkWidget>?, control: UnsafeMutablePointer<GtkWidget>)] = []
    private let saveAsPDFButton = gtk_check_button_new_with_mnemonic("Save as _PDF:")!
    private let saveAsPDFEntry = gtk_entry_new()!
    private let rememberButton = Accessibility.textButton("Remember for This Printer")
    /// The paper choices shown now (after "Printer default").
    private var papersShown: [PaperSize] = []
    private let messageLabel = gtk_label_new(nil)!
    private let queueList = gtk_list_box_new()!
    private let queueEmpty = gtk_label_new("No jobs waiting on this printer")!
    private let refreshButton = Accessibility.iconButton("view-refresh-symbolic", "Refresh Queue")
    private let printButton = Accessibility.textButton("Print")
    private let cancelButton = Accessibility.textButton("Close")
    private var closed = false

    /// - Parameter render: renders pages (1-based) as they will print, fitted to a box, off the
    ///   main loop (the preview strip).
    init(sheet: PrintSheet, parent: UnsafeMutablePointer<GtkWidget>, currentPage: Int,
         render: @escaping PrintPreviewStrip.Render, renderSides: @escaping PrintPreviewStrip.RenderSides) {
        self.sheet = sheet
        self.currentPage = currentPage
        preview = PrintPreviewStrip(render: render, renderSides: renderSides)
        window = gtk_window_new()!
        gtk_window_set_title(cast(window), "Print \(sheet.documentName)")
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_default_size(cast(window), Self.width, -1)
        let range = sheet.copiesRange
        copies = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1)
        gtk_spin_button_set_numeric(cast(copies), 1)
        build()
        updatePrinterChoices()
        connect()
        validate()
    }

    /// The sheet's width, and the most its fields take in height before they scroll (GNOME's
    /// dialogs: about 460 wide, well inside a 768-pixel-high screen with the buttons).
    private static let width: Int32 = 460
    private static let fieldsMaximumHeight: Int32 = 640

    private func build() {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(box, 16)
        }
        let heading = gtk_label_new("Printer")!
        gtk_widget_set_halign(heading, GTK_ALIGN_START)
        gtk_widget_add_css_class(heading, "heading")
        gtk_box_append(cast(box), heading)
        gtk_list_box_set_selection_mode(cast(printerList), GTK_SELECTION_SINGLE)
        gtk_widget_add_css_class(printerList, "boxed-list")
        Accessibility.setLabel(printerList, "Printers")
        for (index, printer) in sheet.printers.enumerated() {
            let text = "\(printer.name)\(printer.isDefault ? " (default)" : "") — \(printer.stateText)"
            let label = gtk_label_new(text)!
            gtk_widget_set_halign(label, GTK_ALIGN_START)
            // A long name is cut in the middle (the state stays readable); the tooltip has it whole.
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_MIDDLE)
            gtk_widget_set_tooltip_text(label, text)
            for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
                side(label, 6)
            }
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_child(cast(row), label)
            Accessibility.setLabel(row, text)
            if !printer.isSelectable {
                gtk_list_box_row_set_selectable(cast(row), 0)
                gtk_list_box_row_set_activatable(cast(row), 0)
                gtk_widget_set_sensitive(row, 0)
                gtk_widget_set_tooltip_text(row, "\(printer.name) is \(printer.stateText): it cannot take jobs now")
            }
            gtk_list_box_append(cast(printerList), row)
            if index == sheet.selectedIndex { gtk_list_box_select_row(cast(printerList), cast(row)) }
        }
        gtk_box_append(cast(box), printerList)
        // The preview stands high, in view whatever the fields below it: what it shows is what prints.
        gtk_box_append(cast(box), preview.root)

        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(cast(grid), 8)
        gtk_grid_set_column_spacing(cast(grid), 12)
        let copiesLabel = gtk_label_new_with_mnemonic("_Copies")!
        gtk_label_set_mnemonic_widget(cast(copiesLabel), copies)
        gtk_widget_set_halign(copiesLabel, GTK_ALIGN_END)
        gtk_grid_attach(cast(grid), copiesLabel, 0, 0, 1, 1)
        let copiesRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_box_append(cast(copiesRow), copies)
        Self.styleProblem(copiesProblem)
        gtk_box_append(cast(copiesRow), copiesProblem)
        gtk_grid_attach(cast(grid), copiesRow, 1, 0, 1, 1)

        let pagesLabel = gtk_label_new("Pages")!
        gtk_widget_set_halign(pagesLabel, GTK_ALIGN_END)
        gtk_widget_set_valign(pagesLabel, GTK_ALIGN_START)
        gtk_grid_attach(cast(grid), pagesLabel, 0, 1, 1, 1)
        let pagesBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
        gtk_check_button_set_group(cast(currentPageButton), cast(allPages))
        gtk_check_button_set_group(cast(rangeButton), cast(allPages))
        gtk_check_button_set_active(cast(allPages), 1)
        // GTK 4.8 names a check button with a mnemonic by its text, underscore included.
        Accessibility.setLabel(allPages, "All pages")
        Accessibility.setLabel(currentPageButton, "Current page")
        Accessibility.setLabel(rangeButton, "Pages")
        gtk_box_append(cast(pagesBox), allPages)
        if sheet.pageCount != nil { gtk_box_append(cast(pagesBox), currentPageButton) }
        let rangeRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_box_append(cast(rangeRow), rangeButton)
        gtk_entry_set_placeholder_text(cast(rangeEntry), "e.g. 1-3,7")
        Accessibility.setLabel(rangeEntry, "Page Range")
        gtk_widget_set_hexpand(rangeEntry, 1)
        gtk_box_append(cast(rangeRow), rangeEntry)
        gtk_box_append(cast(pagesBox), rangeRow)
        Self.styleProblem(pagesProblem)
        gtk_box_append(cast(pagesBox), pagesProblem)
        gtk_grid_attach(cast(grid), pagesBox, 1, 1, 1, 1)
        Self.attachRow(grid, sidesLabel, sidesDropDown, name: "Two-sided", row: 2)
        Self.attachRow(grid, colorLabel, colorDropDown, name: "Colour", row: 3)
        Self.attachRow(grid, paperLabel, paperDropDown, name: "Paper", row: 4)
        var row: Int32 = 5
        for choice in SheetOptions.choices {
            if choice.isSwitch {
                let button = gtk_check_button_new_with_mnemonic(choice.mnemonicLabel)!
                Accessibility.setLabel(button, choice.label)
                gtk_check_button_set_active(cast(button), choice.index(in: sheet.chosen) == 1 ? 1 : 0)
                gtk_grid_attach(cast(grid), button, 1, row, 1, 1)
                choiceControls.append((choice, nil, button))
            } else {
                let label = gtk_label_new_with_mnemonic(choice.mnemonicLabel)!
                let dropDown = gtk_drop_down_new(nil, nil)!
                Self.attachRow(grid, label, dropDown, name: choice.label, row: row)
                Self.setChoices(dropDown, choice.values.map(\.shown), selected: choice.index(in: sheet.chosen) ?? 0)
                choiceControls.append((choice, label, dropDown))
            }
            row += 1
        }
        let saveRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        Accessibility.setLabel(saveAsPDFButton, "Save as PDF")
        gtk_box_append(cast(saveRow), saveAsPDFButton)
        gtk_editable_set_text(OpaquePointer(saveAsPDFEntry), sheet.defaultPDFPath.description)
        Accessibility.setLabel(saveAsPDFEntry, "PDF File")
        gtk_widget_set_hexpand(saveAsPDFEntry, 1)
        gtk_box_append(cast(saveRow), saveAsPDFEntry)
        gtk_grid_attach(cast(grid), saveRow, 0, row, 2, 1)
        gtk_box_append(cast(box), grid)

        // The chosen printer's queue: unfinished jobs, each with Cancel.
        let queueHeader = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let queueHeading = gtk_label_new("Queue")!
        gtk_widget_add_css_class(queueHeading, "heading")
        gtk_widget_set_hexpand(queueHeading, 1)
        gtk_widget_set_halign(queueHeading, GTK_ALIGN_START)
        gtk_box_append(cast(queueHeader), queueHeading)
        gtk_box_append(cast(queueHeader), refreshButton)
        gtk_box_append(cast(box), queueHeader)
        gtk_list_box_set_selection_mode(cast(queueList), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(queueList, "boxed-list")
        Accessibility.setLabel(queueList, "Print Queue")
        gtk_list_box_set_placeholder(cast(queueList), queueEmpty)
        gtk_box_append(cast(box), queueList)

        // The fields scroll when they outgrow the sheet; the status line and the buttons do
        // not, so a sent message or a long queue never pushes Print out of view.
        let fields = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(fields), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_propagate_natural_height(cast(fields), 1)
        gtk_scrolled_window_set_max_content_height(cast(fields), Self.fieldsMaximumHeight)
        gtk_widget_set_vexpand(fields, 1)
        gtk_scrolled_window_set_child(cast(fields), box)

        let footer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
        for side in [gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(footer, 16)
        }
        gtk_widget_set_margin_top(footer, 8)
        gtk_label_set_wrap(cast(messageLabel), 1)
        gtk_label_set_wrap_mode(cast(messageLabel), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(cast(messageLabel), 0)
        gtk_label_set_selectable(cast(messageLabel), 1)
        gtk_widget_set_halign(messageLabel, GTK_ALIGN_FILL)
        Accessibility.setLabel(messageLabel, "Print Status")
        gtk_widget_set_visible(messageLabel, 0)
        gtk_box_append(cast(footer), messageLabel)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        gtk_widget_add_css_class(printButton, "suggested-action")
        gtk_widget_set_tooltip_text(rememberButton, "Keep paper, sides, colour, scaling and pages per sheet for this printer (lpoptions, which lp reads too)")
        gtk_box_append(cast(buttons), rememberButton)
        gtk_box_append(cast(buttons), cancelButton)
        gtk_box_append(cast(buttons), printButton)
        gtk_box_append(cast(footer), buttons)

        let sheetBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(sheetBox), fields)
        gtk_box_append(cast(sheetBox), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(cast(sheetBox), footer)
        gtk_window_set_child(cast(window), sheetBox)
        gtk_window_set_default_widget(cast(window), printButton)
    }

    /// One row of the sheet's grid: its label (right-aligned, its mnemonic reaching the
    /// drop-down) and the drop-down, named `name` for assistive technologies.
    private static func attachRow(_ grid: UnsafeMutablePointer<GtkWidget>, _ label: UnsafeMutablePointer<GtkWidget>,
                                  _ dropDown: UnsafeMutablePointer<GtkWidget>, name: String, row: Int32) {
        gtk_label_set_mnemonic_widget(cast(label), dropDown)
        gtk_widget_set_halign(label, GTK_ALIGN_END)
        gtk_grid_attach(cast(grid), label, 0, row, 1, 1)
        Accessibility.nameDropDownButton(dropDown, name)
        gtk_grid_attach(cast(grid), dropDown, 1, row, 1, 1)
    }

    /// A field's problem: red, wrapped, hidden until there is one.
    private static func styleProblem(_ label: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_add_css_class(label, "error")
        gtk_label_set_wrap(cast(label), 1)
        gtk_label_set_xalign(cast(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_widget_set_visible(label, 0)
    }

    private func connect() {
        Signal.connectRowSelected(printerList) { [unowned self] index in
            guard index >= 0 else { return }
            if let reason = self.sheet.selectPrinter(at: index) { self.message(reason, error: true) }
            self.updatePrinterChoices()
            self.validate()
            self.refreshQueue()
        }
        for button in [allPages, currentPageButton] {
            Signal.connect(button, "toggled") { [unowned self] in self.validate() }
        }
        // Choosing "Pages:" (a click, Alt+G) puts the cursor in its entry, where the range is
        // typed: without this, what the user types next lands in Copies.
        Signal.connect(rangeButton, "toggled") { [unowned self] in
            if gtk_check_button_get_active(cast(self.rangeButton)) != 0, !self.rangeHasFocus {
                gtk_entry_grab_focus_without_selecting(cast(self.rangeEntry))
            }
            self.validate()
        }
        // Alt+G (or Space) on "Pages:" when it is already chosen emits no "toggled": the
        // cursor still goes to the range.
        Signal.connect(rangeButton, "activate") { [unowned self] in
            Signal.idle { [weak self] in
                guard let self, gtk_check_button_get_active(cast(self.rangeButton)) != 0, !self.rangeHasFocus else { return }
                gtk_entry_grab_focus_without_selecting(cast(self.rangeEntry))
            }
        }
        Signal.connect(rangeEntry, "changed") { [unowned self] in
            if !self.rangeText.isEmpty { gtk_check_button_set_active(cast(self.rangeButton), 1) }
            self.validate()
        }
        // Copies holds digits only: letters, signs and separators typed or pasted never appear.
        if let text = gtk_editable_get_delegate(OpaquePointer(copies)) {
            Signal.filterInsertedText(UnsafeMutablePointer<GtkWidget>(text)) { PrintSheet.isCopiesInput($0) }
        }
        Signal.connect(copies, "changed") { [unowned self] in self.validate() }
        Signal.connect(copies, "value-changed") { [unowned self] in self.validate() }
        for dropDown in [sidesDropDown, colorDropDown, paperDropDown] {
            Signal.connectIgnoringArgument(dropDown, "notify::selected") { [unowned self] in self.validate() }
        }
        for (choice, _, control) in choiceControls {
            if choice.isSwitch {
                Signal.connect(control, "toggled") { [unowned self] in self.validate() }
            } else {
                Signal.connectIgnoringArgument(control, "notify::selected") { [unowned self] in self.validate() }
            }
        }
        Signal.connect(saveAsPDFButton, "toggled") { [unowned self] in self.validate() }
        Signal.connect(saveAsPDFEntry, "changed") { [unowned self] in self.validate() }
        Signal.connect(rememberButton, "clicked") { [unowned self] in
            self.validate()
            do {
                try self.sheet.rememberForPrinter()
                self.message("Remembered for \(self.sheet.selected.name): paper, sides, colour, scaling and pages per sheet", error: false)
            } catch {
                self.message((error as? PrintError)?.message ?? "\(error)", error: true)
            }
        }
        // Enter in Copies goes on to the page range; Enter in the range prints.
        let copiesKeys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(copiesKeys, GTK_PHASE_CAPTURE)
        Signal.connectKey(copiesKeys) { [unowned self] keyval, _ in
            let key = Int32(bitPattern: keyval)
            guard key == GDK_KEY_Return || key == GDK_KEY_KP_Enter else { return false }
            self.validate()
            gtk_widget_grab_focus(self.rangeEntry)
            return true
        }
        gtk_widget_add_controller(copies, copiesKeys)
        Signal.connect(rangeEntry, "activate") { [unowned self] in self.submit() }
        Signal.connect(printButton, "clicked") { [unowned self] in self.submit() }
        Signal.connect(cancelButton, "clicked") { [unowned self] in self.close() }
        Signal.connect(refreshButton, "clicked") { [unowned self] in self.refreshQueue() }
        Signal.connectReturning(window, "close-request") { [unowned self] in
            self.closed = true
            return false
        }
        let keys = gtk_event_controller_key_new()!
        Signal.connectKey(keys) { [unowned self] keyval, _ in
            guard Int32(bitPattern: keyval) == GDK_KEY_Escape else { return false }
            self.close()
            return true
        }
        gtk_widget_add_controller(window, keys)
    }

    /// Sides and colour as the chosen printer offers them: a drop-down only when there is a
    /// choice (a duplex printer, a colour printer); the choice is kept when the new printer has it.
    private func updatePrinterChoices() {
        // Copies up to what the chosen printer takes (its copies-supported).
        let range = sheet.copiesRange
        var lower = 0.0, upper = 0.0
        gtk_spin_button_get_range(cast(copies), &lower, &upper)
        if lower != Double(range.lowerBound) || upper != Double(range.upperBound) {
            gtk_spin_button_set_range(cast(copies), Double(range.lowerBound), Double(range.upperBound))
        }
        let sides = sheet.sidesChoices
        if sides != sidesShown {
            sidesShown = sides
            Self.setChoices(sidesDropDown, ["Printer default"] + sides.map(\.rawValue),
                            selected: sheet.sides.flatMap { sides.firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
        }
        gtk_widget_set_visible(sidesDropDown, sides.isEmpty ? 0 : 1)
        gtk_widget_set_visible(sidesLabel, sides.isEmpty ? 0 : 1)
        let colors = sheet.colorModeChoices
        if colors != colorsShown {
            colorsShown = colors
            Self.setChoices(colorDropDown, ["Printer default"] + colors.map { $0 == .color ? "Colour" : "Black and white" },
                            selected: sheet.colorMode.flatMap { colors.firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
        }
        gtk_widget_set_visible(colorDropDown, colors.isEmpty ? 0 : 1)
        gtk_widget_set_visible(colorLabel, colors.isEmpty ? 0 : 1)
        let papers = sheet.paperChoices
        let defaultName = sheet.defaultPaper.map { "Printer default (\($0.displayName))" } ?? "Printer default"
        papersShown = papers
        Self.setChoices(paperDropDown, [defaultName] + papers.map(\.displayName),
                        selected: sheet.paper.flatMap { paper in papers.firstIndex { $0.name == paper.name } }.map { $0 + 1 } ?? 0)
        // The chosen printer's saved options (the model applied them) show in the fields.
        for (choice, _, control) in choiceControls where choice.remembered {
            let index = choice.index(in: sheet.chosen) ?? 0
            if choice.isSwitch { gtk_check_button_set_active(cast(control), index == 1 ? 1 : 0) }
            else { gtk_drop_down_set_selected(cast(control), guint(index)) }
        }
        gtk_drop_down_set_selected(cast(sidesDropDown), guint(sheet.sides.flatMap { sides.firstIndex(of: $0) }.map { $0 + 1 } ?? 0))
        gtk_drop_down_set_selected(cast(colorDropDown), guint(sheet.colorMode.flatMap { colors.firstIndex(of: $0) }.map { $0 + 1 } ?? 0))
    }

    private static func setChoices(_ dropDown: UnsafeMutablePointer<GtkWidget>, _ names: [String], selected: Int) {
        let list = GtkStrings.list(names)
        gtk_drop_down_set_model(cast(dropDown), list)
        g_object_unref(UnsafeMutableRawPointer(list))
        gtk_drop_down_set_selected(cast(dropDown), guint(selected))
    }

    private var rangeText: String { String(cString: gtk_editable_get_text(OpaquePointer(rangeEntry))) }

    /// Whether the cursor is in the range entry (its text widget has the focus).
    private var rangeHasFocus: Bool {
        gtk_editable_get_delegate(OpaquePointer(rangeEntry)).map { gtk_widget_has_focus(UnsafeMutablePointer<GtkWidget>($0)) != 0 } ?? false
    }

    /// Copies the widgets into the model's sheet — Copies as its text shows it, not the spin
    /// button's last committed value — and shows each field's problem beside it.
    private func validate() {
        sheet.copiesText = String(cString: gtk_editable_get_text(OpaquePointer(copies)))
        sheet.pagesText = rangeText
        if gtk_check_button_get_active(cast(currentPageButton)) != 0 {
            sheet.pageChoice = .current
        } else if gtk_check_button_get_active(cast(rangeButton)) != 0 {
            sheet.pageChoice = .range
        } else {
            sheet.pageChoice = .all
        }
        let side = Int(gtk_drop_down_get_selected(cast(sidesDropDown)))
        sheet.sides = side >= 1 && side <= sidesShown.count ? sidesShown[side - 1] : nil
        let color = Int(gtk_drop_down_get_selected(cast(colorDropDown)))
        sheet.colorMode = color >= 1 && color <= colorsShown.count ? colorsShown[color - 1] : nil
        let paper = Int(gtk_drop_down_get_selected(cast(paperDropDown)))
        sheet.paper = paper >= 1 && paper <= papersShown.count ? papersShown[paper - 1] : nil
        for (choice, _, control) in choiceControls {
            let index = choice.isSwitch ? Int(gtk_check_button_get_active(cast(control))) : Int(gtk_drop_down_get_selected(cast(control)))
            choice.choose(index, in: &sheet.chosen)
        }
        // A choice that means nothing with the others (order and border with one page per side) is hidden.
        for (choice, label, control) in choiceControls {
            let shown: gboolean = sheet.fields.contains(PrintSheet.Field(choice)) ? 1 : 0
            gtk_widget_set_visible(control, shown)
            if let label { gtk_widget_set_visible(label, shown) }
        }
        let saving = gtk_check_button_get_active(cast(saveAsPDFButton)) != 0
        let path = String(cString: gtk_editable_get_text(OpaquePointer(saveAsPDFEntry)))
        sheet.saveAsPDF = saving && !path.isEmpty ? DocumentPath(path) : nil
        gtk_button_set_label(cast(printButton), saving ? "Save" : "Print")
        Accessibility.setLabel(printButton, saving ? "Save" : "Print")
        if sheet.composes, let request = sheet.sheetRequest, let sides = sheet.sideCount, let summary = sheet.summary {
            preview.show(sheet: request, sides: sides, summary: summary, monochrome: sheet.colorMode == .monochrome)
        } else {
            preview.show(pages: sheet.pagesToPrint, monochrome: sheet.colorMode == .monochrome)
        }
        if let note = sheet.bookletNote, sheet.firstProblem == nil { message(note, error: false) }
        Self.show(sheet.problem(in: .copies), in: copiesProblem)
        Self.show(sheet.problem(in: .pages), in: pagesProblem)
        if let problem = sheet.firstProblem {
            // Copies and Pages say theirs beside the field; the status line says the others'.
            if problem.field != .copies && problem.field != .pages { message(problem.message, error: true) }
            gtk_widget_set_sensitive(printButton, 0)
            gtk_widget_set_tooltip_text(printButton, problem.message)
        } else {
            if statusIsProblem { message("", error: false) }
            gtk_widget_set_sensitive(printButton, 1)
            gtk_widget_set_tooltip_text(printButton, nil)
        }
    }

    private static func show(_ problem: String?, in label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_text(cast(label), problem ?? "")
        gtk_widget_set_visible(label, problem == nil ? 0 : 1)
    }

    private func submit() {
        validate()
        guard sheet.firstProblem == nil else { return }
        do {
            if let path = sheet.saveAsPDF {
                let sides = try sheet.saveAsPDFFile()
                message("Saved \(sides) side\(sides == 1 ? "" : "s") to \(path)", error: false)
                return
            }
            let job = try sheet.submit()
            var text = "Sent to \(job.destination) — job \(job.id)"
            if sheet.bookletPass == .even, let note = sheet.bookletNote { text += ". " + note }
            message(text, error: false)
            refreshQueue()
        } catch let error as PrintError {
            message(error.message, error: true)
        } catch let error as OutputError {
            message(error.description, error: true)
        } catch {
            message("\(error)", error: true)
        }
    }

    /// Lists the chosen printer's unfinished jobs again.
    func refreshQueue() {
        while let row = gtk_widget_get_first_child(queueList), row != queueEmpty {
            gtk_list_box_remove(cast(queueList), row)
        }
        let jobs: [JobInfo]
        do {
            jobs = try sheet.queue()
        } catch {
            gtk_label_set_text(cast(queueEmpty), "The queue cannot be read: \(error.message)")
            return
        }
        gtk_label_set_text(cast(queueEmpty), "No jobs waiting on \(sheet.selected.name)")
        for job in jobs {
            let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
            for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
                side(row, 4)
            }
            let text = "Job \(job.id) — \(job.title) — \(job.state.rawValue)"
            let label = gtk_label_new(text)!
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_MIDDLE)
            gtk_widget_set_hexpand(label, 1)
            gtk_widget_set_halign(label, GTK_ALIGN_START)
            gtk_box_append(cast(row), label)
            let cancel = Accessibility.textButton("Cancel")
            Accessibility.setLabel(cancel, "Cancel job \(job.id)")
            gtk_widget_set_tooltip_text(cancel, "Cancel job \(job.id)")
            let id = job.id
            Signal.connect(cancel, "clicked") { [unowned self] in
                do {
                    try self.sheet.cancel(job: id)
                    self.message("Job \(id) cancelled", error: false)
                } catch {
                    self.message((error as? PrintError)?.message ?? "\(error)", error: true)
                }
                self.refreshQueue()
            }
            gtk_box_append(cast(row), cancel)
            gtk_list_box_append(cast(queueList), row)
        }
    }

    /// Whether the status line shows a problem (cleared once the fields are valid again; a
    /// "Sent to …" line stays until the next change of printer or job).
    private var statusIsProblem = false

    private func message(_ text: String, error: Bool) {
        statusIsProblem = error
        gtk_label_set_text(cast(messageLabel), text)
        gtk_widget_set_visible(messageLabel, text.isEmpty ? 0 : 1)
        if error { gtk_widget_add_css_class(messageLabel, "error") } else { gtk_widget_remove_css_class(messageLabel, "error") }
    }

    func present() {
        closed = false
        refreshQueue()
        gtk_window_present(cast(window))
        gtk_widget_grab_focus(copies)
    }

    func close() {
        guard !closed else { return }
        closed = true
        gtk_window_destroy(cast(window))
    }
}
