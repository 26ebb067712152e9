import CGtk
import Quire
import QuireRenderService
import QuireViewer

/// The window's Markup (issue 36): the header's Markup toggle (Ctrl+Shift+A) and the tool bar
/// it shows over a PDF's pages — Highlight, Underline and Strike Through for the selected text
/// (else the current find match), Note and Text (a click: a sticky note, or a text box set
/// where the page was clicked, its text typed in the bar's field first), Draw (freehand ink), Rectangle, Oval, Line and
/// Arrow (a drag), Sign (a click places the signature drawn once on a pad and kept: ink), a
/// colour and a line width, Rotate Left/Right for the page in view, Undo/Redo (Ctrl+Z,
/// Ctrl+Shift+Z), Done and Revert. With no tool chosen, a click on an annotation already in the
/// file selects it and Delete removes it (when Done saves; it is veiled until then); a drag
/// moves it (not text markup, which belongs to its words), and a drag on a selected drawing's
/// corner handle resizes it.
///
/// Changes wait in a ``DocumentMarkup`` per file and are drawn over the pages at once; Done
/// has the worker make the incremental update and writes it into the file in place
/// (``MarkupSaving``, off the main loop), then the file is read again, so what is shown is what
/// was saved. Revert puts the original bytes back, as long as the window is open. The window
/// never reads the PDF itself.
///
/// Over a still JPEG or PNG image the bar holds Rotate Left, Rotate Right and Crop (a box
/// dragged over the part to keep), Undo/Redo, Done and Revert: the worker writes the image again
/// (a JPEG only turned keeps its picture's bytes: its orientation tag changes), Done replaces
/// the file atomically and Revert writes its original bytes back.
@MainActor
final class MarkupBar {
    /// The bar under the header (hidden until Markup is on): the tools scroll across rather
    /// than widen the window (its size stays the same from file to file); Undo, Redo, Revert
    /// and Done stay in view at its end.
    let root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
    private let scroller = gtk_scrolled_window_new()!
    private let tools = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
    /// The header's toggle.
    let toggle = gtk_toggle_button_new()!

    private let highlightButton = gtk_button_new_with_label("Highlight")!
    private let underlineButton = Accessibility.iconButton("format-text-underline-symbolic", "Underline")
    private let strikeButton = Accessibility.iconButton("format-text-strikethrough-symbolic", "Strike Through")
    /// No drawing tool: a drag selects text, a click an annotation (the group's first, chosen at first).
    private let selectButton = MarkupBar.toolButton(nil, "Select", tip: "Select: drag to select text, click an annotation to select it (Delete removes it)")
    private let noteButton = MarkupBar.toolButton(nil, "Note", tip: "Note: click on the page")
    private let textButton = MarkupBar.toolButton(nil, "Text", tip: "Text: type it in the field, then click where the box goes")
    private let rectangleButton = MarkupBar.toolButton("checkbox-symbolic", "Rectangle", tip: "Rectangle: drag on the page")
    private let ovalButton = MarkupBar.toolButton("radio-symbolic", "Oval", tip: "Oval: drag on the page")
    private let lineButton = MarkupBar.toolButton(nil, "Line", tip: "Line: drag on the page")
    private let arrowButton = MarkupBar.toolButton(nil, "Arrow", tip: "Arrow: drag on the page from its tail to its tip")
    private let drawButton = MarkupBar.toolButton(nil, "Draw", tip: "Draw: drag on the page to draw freehand")
    private let widthChoice: UnsafeMutablePointer<GtkWidget>
    private let signButton = MarkupBar.toolButton(nil, "Sign", tip: "Sign: click where your signature goes (the first time, draw it)")
    private let newSignatureButton = Accessibility.textButton("New Signature…")
    /// Sign with Certificate…: a box dragged on the page, then the certificate chosen; shown
    /// only when `~/.pki/nssdb` has a certificate that can sign.
    private let certifyButton = MarkupBar.toolButton(nil, "Sign with Certificate…",
                                                     tip: "Sign with Certificate: drag a box where the digital signature goes, then choose the certificate")
    /// The certificates that can sign (read off the main loop when the bar is first shown).
    private var certificates: [String]?
    /// The certificate dialog while it is open.
    private var certificateDialog: CertificateDialog?
    /// The question asked at Done about a file changed on disk, while it is open.
    private var changedFileDialog: ChangedFileDialog?
    /// The file (model index) to save into once it has been read again (Save Over It).
    private var savingAfterReopen: Int?
    /// The signature pad while it is open.
    private var signatureDialog: SignatureDialog?
    private let signatures = SignatureStore.standard()
    private let colourChoice: UnsafeMutablePointer<GtkWidget>
    /// The text of the next note or text box (shown while Note or Text is chosen).
    private let noteText = gtk_entry_new()!
    /// The next text box's size (shown while Text is chosen).
    private let textSizeChoice: UnsafeMutablePointer<GtkWidget>
    private let rotateLeftButton = Accessibility.iconButton("object-rotate-left-symbolic", "Rotate Left")
    private let rotateRightButton = Accessibility.iconButton("object-rotate-right-symbolic", "Rotate Right")
    /// An image's Crop: a box dragged over the part kept.
    private let cropButton = MarkupBar.toolButton(nil, "Crop", tip: "Crop: drag a box over the part of the image to keep")
    private let undoButton = Accessibility.iconButton("edit-undo-symbolic", "Undo")
    private let redoButton = Accessibility.iconButton("edit-redo-symbolic", "Redo")
    private let doneButton = gtk_button_new_with_label("Done")!
    /// The changes into a new file, the one shown left as it is (always there; the only way for
    /// a file that cannot be saved in place).
    private let saveCopyButton = gtk_button_new_with_label("Save a Copy…")!
    private let revertButton = gtk_button_new_with_label("Revert")!

    /// The colours offered, in the choice's order.
    static let colours: [(name: String, colour: PageAnnotation.Colour)] = [
        ("Yellow", .highlightYellow), ("Green", PageAnnotation.Colour(red: 0.2, green: 0.8, blue: 0.2)),
        ("Blue", PageAnnotation.Colour(red: 0.1, green: 0.4, blue: 0.95)), ("Red", .red),
        ("Black", PageAnnotation.Colour(red: 0, green: 0, blue: 0)),
    ]

    /// The line widths offered (points), in the choice's order; the second is the first chosen.
    static let widths: [(name: String, points: Double)] = [("Thin", 1), ("Medium", 2), ("Thick", 4)]

    /// The text sizes offered (points), in the choice's order; the second is the first chosen.
    static let textSizes: [(name: String, points: Double)] = [("Small Text", 9), ("Medium Text", 12), ("Large Text", 18)]

    /// Widest a text box is set (it is narrower where the page ends sooner), in points.
    static let textBoxWidth = 240.0

    /// What a drag or click on a page makes while the bar is shown.
    enum Tool { case none, note, text, draw, rectangle, oval, line, arrow, sign, certify, crop }
    private(set) var tool = Tool.none

    /// Each file's changes not yet saved (by the model's file index).
    private var markups: [Int: DocumentMarkup] = [:]
    /// Each file saved from this window: how to revert it.
    private var saved: [Int: MarkupSaving.Saved] = [:]
    /// A save is on its way (Done is off until it ends).
    private var saving = false
    /// The shape being dragged, drawn until the button is released.
    private var draft: PageAnnotation?
    /// The crop box being dragged (image pixels), drawn until the button is released.
    private var cropDraft: TextBox?
    /// The annotation already in the file that was clicked (Delete removes it).
    private var selectedAnnotation: (file: Int, page: Int, annotation: ExistingAnnotation)?
    /// The annotation being dragged to a new place or, by its corner, to a new size, and the
    /// change so far (page points).
    private var moving: (page: Int, annotation: ExistingAnnotation, change: AnnotationMove)?
    /// The drag under way began on the selected drawing's corner: it resizes.
    private var resizing = false
    /// Said in the status line once the file is shown again (after Done or Revert).
    private var announcement: String?

    private let pages: PageView
    /// A PDF's form, filled in place (its values wait here with the other changes).
    private var formFields: FormFields?
    /// The window (Save a Copy's dialog is its child).
    private let window: UnsafeMutablePointer<GtkWidget>
    /// The window's model now (the previewer service gives the window another one per file).
    private let model: () -> ViewerModel
    private let status: (String) -> Void
    /// Reads the current file again and shows it (after Done or Revert).
    private let reopen: () -> Void

    init(window: UnsafeMutablePointer<GtkWidget>, pages: PageView, model: @escaping () -> ViewerModel, status: @escaping (String) -> Void,
         reopen: @escaping () -> Void) {
        self.window = window
        self.pages = pages
        self.model = model
        self.status = status
        self.reopen = reopen
        colourChoice = GtkStrings.with(Self.colours.map(\.name)) { gtk_drop_down_new_from_strings($0) }!
        widthChoice = GtkStrings.with(Self.widths.map(\.name)) { gtk_drop_down_new_from_strings($0) }!
        textSizeChoice = GtkStrings.with(Self.textSizes.map(\.name)) { gtk_drop_down_new_from_strings($0) }!
        build()
        connect()
        formFields = FormFields(pages: pages, model: model, pending: { [unowned self] name in self.markup.formValue(name) },
                                change: { [unowned self] name, value, said in self.giveFormValue(name, value, said) },
                                enabled: { [unowned self] in
                                    let model = self.model()
                                    return model.markupPermission == .allowed && !model.marksUpImage && !self.saving
                                }, say: { [unowned self] text in self.status(text) })
    }

    /// A form field given a value in the window: the bar is shown (Done, Undo and Revert are
    /// there), and the value waits with the other changes.
    private func giveFormValue(_ name: String, _ value: String, _ said: String) {
        if !isShown { gtk_toggle_button_set_active(cast(toggle), 1) }
        add(.formValue(name: name, value: value), said)
    }

    private static func toolButton(_ icon: String?, _ name: String, tip: String) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_toggle_button_new()!
        if let icon { gtk_button_set_icon_name(cast(button), icon) } else { gtk_button_set_label(cast(button), name) }
        gtk_widget_set_tooltip_text(button, tip)
        Accessibility.setLabel(button, name)
        return button
    }

    private func build() {
        gtk_button_set_icon_name(cast(toggle), "document-edit-symbolic")
        gtk_widget_set_tooltip_text(toggle, "Markup (Ctrl+Shift+A)")
        Accessibility.setLabel(toggle, "Markup")
        gtk_widget_set_visible(toggle, 0)
        gtk_widget_add_css_class(root, "toolbar")
        Accessibility.setLabel(root, "Markup Tools")
        gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(cast(scroller), 1)
        gtk_scrolled_window_set_propagate_natural_width(cast(scroller), 1)
        gtk_widget_set_hexpand(scroller, 1)
        gtk_scrolled_window_set_child(cast(scroller), tools)
        gtk_widget_set_tooltip_text(highlightButton, "Highlight the selected text")
        gtk_widget_set_tooltip_text(underlineButton, "Underline the selected text")
        gtk_widget_set_tooltip_text(strikeButton, "Strike through the selected text")
        // One shape tool at a time (or none).
        for button in [noteButton, textButton, drawButton, rectangleButton, ovalButton, lineButton, arrowButton, signButton, certifyButton, cropButton] {
            gtk_toggle_button_set_group(cast(button), cast(selectButton))
        }
        gtk_toggle_button_set_active(cast(selectButton), 1)
        gtk_widget_set_tooltip_text(newSignatureButton, "Draw a new signature (it replaces the one kept)")
        Accessibility.nameDropDownButton(colourChoice, "Colour")
        Accessibility.setLabel(colourChoice, "Colour")
        gtk_widget_set_tooltip_text(colourChoice, "Colour of what is marked next")
        gtk_drop_down_set_selected(OpaquePointer(widthChoice), 1)
        Accessibility.nameDropDownButton(widthChoice, "Line Width")
        Accessibility.setLabel(widthChoice, "Line Width")
        gtk_widget_set_tooltip_text(widthChoice, "Width of the lines drawn next (Draw, shapes, lines and arrows)")
        gtk_editable_set_width_chars(OpaquePointer(noteText), 10)
        gtk_entry_set_placeholder_text(cast(noteText), "Note text")
        Accessibility.setLabel(noteText, "Note Text")
        gtk_drop_down_set_selected(OpaquePointer(textSizeChoice), 1)
        Accessibility.nameDropDownButton(textSizeChoice, "Text Size")
        Accessibility.setLabel(textSizeChoice, "Text Size")
        gtk_widget_set_tooltip_text(textSizeChoice, "Size of the next text box's letters")
        gtk_widget_set_visible(textSizeChoice, 0)
        gtk_widget_set_tooltip_text(rotateLeftButton, "Turn the page in view left")
        gtk_widget_set_tooltip_text(rotateRightButton, "Turn the page in view right")
        gtk_widget_set_tooltip_text(undoButton, "Undo (Ctrl+Z)")
        gtk_widget_set_tooltip_text(redoButton, "Redo (Ctrl+Shift+Z)")
        gtk_widget_add_css_class(doneButton, "suggested-action")
        gtk_widget_set_tooltip_text(revertButton, "Put the file back as it was when the window opened it")
        // The note's text field shows while the Note tool is chosen.
        gtk_widget_set_visible(noteText, 0)
        for widget in [highlightButton, underlineButton, strikeButton, selectButton, noteButton, textButton, noteText, textSizeChoice, drawButton, rectangleButton, ovalButton,
                       lineButton, arrowButton, signButton, newSignatureButton, certifyButton, colourChoice, widthChoice, rotateLeftButton, rotateRightButton,
                       cropButton] {
            gtk_box_append(cast(tools), widget)
        }
        gtk_widget_set_visible(cropButton, 0)
        gtk_widget_set_visible(certifyButton, 0)
        gtk_widget_set_tooltip_text(saveCopyButton, "Save the changes into a new file, leaving this one as it is")
        for widget in [scroller, undoButton, redoButton, revertButton, saveCopyButton, doneButton] { gtk_box_append(cast(root), widget) }
        gtk_widget_set_visible(root, 0)
    }

    private func connect() {
        Signal.connect(toggle, "toggled") { [unowned self] in self.shown(gtk_toggle_button_get_active(cast(self.toggle)) != 0) }
        Signal.connect(highlightButton, "clicked") { [unowned self] in self.markText(.highlight) }
        Signal.connect(underlineButton, "clicked") { [unowned self] in self.markText(.underline) }
        Signal.connect(strikeButton, "clicked") { [unowned self] in self.markText(.strikeOut) }
        for (button, tool) in [(selectButton, Tool.none), (noteButton, Tool.note), (textButton, .text), (drawButton, .draw), (rectangleButton, .rectangle), (ovalButton, .oval),
                               (lineButton, .line), (arrowButton, .arrow), (signButton, .sign), (certifyButton, .certify), (cropButton, .crop)] {
            Signal.connect(button, "toggled") { [unowned self] in
                if gtk_toggle_button_get_active(cast(button)) != 0 {
                    self.choose(tool)
                } else if self.tool == tool {
                    self.choose(.none)
                }
            }
        }
        Signal.connect(newSignatureButton, "clicked") { [unowned self] in self.drawSignature() }
        Signal.connect(rotateLeftButton, "clicked") { [unowned self] in self.turn(-1) }
        Signal.connect(rotateRightButton, "clicked") { [unowned self] in self.turn(1) }
        Signal.connect(undoButton, "clicked") { [unowned self] in self.undo() }
        Signal.connect(redoButton, "clicked") { [unowned self] in self.redo() }
        Signal.connect(doneButton, "clicked") { [unowned self] in self.done() }
        Signal.connect(revertButton, "clicked") { [unowned self] in self.revert() }
        Signal.connect(saveCopyButton, "clicked") { [unowned self] in self.saveCopy() }
        pages.drawOverlay = { [unowned self] page, cairo, x, y, sx, sy, surface in
            self.draw(page: page, cairo, x: x, y: y, sx: sx, sy: sy, surface: surface)
        }
    }

    // MARK: State

    private var file: Int { model().fileIndex }
    private var markup: DocumentMarkup {
        get { markups[file] ?? DocumentMarkup() }
        set { markups[file] = newValue }
    }
    var isShown: Bool { gtk_toggle_button_get_active(cast(toggle)) != 0 }

    /// Ctrl+Shift+A: the bar shown or hidden (said why not when the file cannot be marked up).
    func toggleShown() {
        guard model().commandContext.canMarkup else {
            status("Markup: \(unavailableReason)")
            return
        }
        gtk_toggle_button_set_active(cast(toggle), isShown ? 0 : 1)
    }

    private var unavailableReason: String {
        switch model().markupPermission {
        case .forbidden(let reason)?: return reason
        case .allowed?: return "not available now"
        case nil: return "only PDFs and images can be marked up"
        }
    }

    private func shown(_ on: Bool) {
        gtk_widget_set_visible(root, on ? 1 : 0)
        if !on { untoggleTools() }
        selectedAnnotation = nil
        pages.annotationClick = on ? { [unowned self] page, x, y in self.pickAnnotation(page: page, x: x, y: y) } : nil
        pages.annotationDragStart = on ? { [unowned self] page, x, y in self.startMoving(page: page, x: x, y: y) } : nil
        pages.annotationDrag = on ? { [unowned self] page, from, to, finished in self.moved(page: page, from: from, to: to, finished: finished) } : nil
        pages.cursorAt = on ? { [unowned self] page, x, y in self.onHandle(page: page, x: x, y: y) ? "nwse-resize" : nil } : nil
        moving = nil
        if on, certificates == nil, !model().marksUpImage {
            // Read off the main loop (NSS opens its database): the bar is on screen at once,
            // the button follows when there is a certificate.
            certificates = []
            JoinableThread.detach(stackSize: 1 << 20) {
                let names = MarkupSaving.signingCertificates()
                Signal.post { [weak self] in
                    guard let self else { return }
                    self.certificates = names
                    gtk_widget_set_visible(self.certifyButton, names.isEmpty ? 0 : 1)
                }
            }
        }
        if on, model().marksUpImage {
            status("Markup: Rotate Left or Right turns the image, Crop keeps the box dragged over it · Done saves into the file")
            return
        }
        if on { model().wantText(pages: [model().page]) }
        if on { status("Markup: select text and press Highlight, or choose a shape and drag on the page · Done saves into the file") }
    }

    private func untoggleTools() {
        gtk_toggle_button_set_active(cast(selectButton), 1)
        choose(.none)
    }

    private func choose(_ tool: Tool) {
        self.tool = tool
        draft = nil
        cropDraft = nil
        gtk_widget_set_visible(noteText, tool == .note || tool == .text ? 1 : 0)
        gtk_widget_set_visible(textSizeChoice, tool == .text ? 1 : 0)
        if tool == .note || tool == .text {
            let name = tool == .note ? "Note Text" : "Text Box Text"
            gtk_entry_set_placeholder_text(cast(noteText), tool == .note ? "Note text" : "Text to place")
            Accessibility.setLabel(noteText, name)
        }
        switch tool {
        case .none:
            pages.shapeDrag = nil
            pages.pageClick = nil
        case .note:
            pages.shapeDrag = nil
            pages.pageClick = { [unowned self] page, x, y in self.placeNote(page: page, x: x, y: y) }
        case .text:
            // Text in the highlighter's yellow can hardly be read: black, where yellow is still chosen.
            if gtk_drop_down_get_selected(OpaquePointer(colourChoice)) == 0,
               let black = Self.colours.firstIndex(where: { $0.name == "Black" }) {
                gtk_drop_down_set_selected(OpaquePointer(colourChoice), guint(black))
            }
            pages.shapeDrag = nil
            pages.pageClick = { [unowned self] page, x, y in self.placeText(page: page, x: x, y: y) }
        case .sign:
            pages.shapeDrag = nil
            pages.pageClick = { [unowned self] page, x, y in self.placeSignature(page: page, x: x, y: y) }
        case .draw, .rectangle, .oval, .line, .arrow, .certify, .crop:
            pages.pageClick = nil
            pages.shapeDrag = { [unowned self] page, from, to, finished in self.dragged(page: page, from: from, to: to, finished: finished) }
        }
        switch tool {
        case .none:
            if isShown, !model().marksUpImage { status("Select: drag to select text, or click an annotation (Delete removes it when Done saves)") }
        case .note: status("Note: click on the page where it goes (type its text in the field first)")
        case .text: status("Text: type it in the field, then click where the box's top left corner goes")
        case .rectangle: status("Rectangle: drag on the page")
        case .oval: status("Oval: drag on the page")
        case .line: status("Line: drag on the page")
        case .arrow: status("Arrow: drag from its tail to its tip")
        case .draw: status("Draw: drag on the page; each stroke can be undone (Ctrl+Z)")
        case .certify: status("Sign with Certificate: drag a box on the page where the signature goes")
        case .crop: status("Crop: drag a box over the part of the image to keep")
        case .sign:
            if signatures.load() == nil {
                drawSignature()
            } else {
                status("Sign: click where the signature goes · New Signature… draws another")
            }
        }
    }

    /// The current file changed, or was shown again: the toggle says whether it can be marked
    /// up (insensitive, with the reason as its tooltip, when its permissions forbid it; hidden
    /// for anything but a PDF), and the bar's buttons follow its changes.
    func refresh() {
        let model = model()
        if case .opening = model.content { return }
        switch model.markupPermission {
        case nil:
            gtk_widget_set_visible(toggle, 0)
            gtk_toggle_button_set_active(cast(toggle), 0)
        case .forbidden(let reason)?:
            gtk_widget_set_visible(toggle, 1)
            gtk_toggle_button_set_active(cast(toggle), 0)
            gtk_widget_set_sensitive(toggle, 0)
            gtk_widget_set_tooltip_text(toggle, "Markup: \(reason)")
            Accessibility.setDescription(toggle, reason)
        case .allowed?:
            gtk_widget_set_visible(toggle, 1)
            gtk_widget_set_sensitive(toggle, 1)
            gtk_widget_set_tooltip_text(toggle, "Markup (Ctrl+Shift+A)")
            Accessibility.setDescription(toggle, "Mark the PDF up: highlight, notes, text boxes, shapes, drawings, signatures; move or delete annotations; turn pages")
        }
        if let waiting = savingAfterReopen, waiting == model.fileIndex, model.openedFile != nil {
            savingAfterReopen = nil
            Signal.idle { [weak self] in self?.save() }
        }
        showTools(forImage: model.marksUpImage)
        // A PDF's pages bring their form fields with their text.
        pages.asksForPageText = model.markupPermission == .allowed && !model.marksUpImage
        updateButtons()
        // The page's annotations come with its text: there to be clicked once Markup is on.
        if isShown, !model.marksUpImage, case .pages = model.content, model.pageText(model.page) == nil { model.wantText(pages: [model.page]) }
        if let announcement, case .pages = model.content {
            self.announcement = nil
            status(announcement)
        }
    }

    /// The PDF's tools, or an image's (Rotate Left, Rotate Right, Crop).
    private var showsImageTools: Bool?
    private func showTools(forImage image: Bool) {
        guard showsImageTools != image else { return }
        showsImageTools = image
        if tool != .none { untoggleTools() }
        for widget in [highlightButton, underlineButton, strikeButton, selectButton, noteButton, textButton, drawButton, rectangleButton,
                       ovalButton, lineButton, arrowButton, signButton, newSignatureButton, colourChoice, widthChoice] {
            gtk_widget_set_visible(widget, image ? 0 : 1)
        }
        if image {
            gtk_widget_set_visible(noteText, 0)
            gtk_widget_set_visible(textSizeChoice, 0)
            gtk_widget_set_visible(certifyButton, 0)
        } else {
            gtk_widget_set_visible(certifyButton, (certificates?.isEmpty ?? true) ? 0 : 1)
        }
        gtk_widget_set_visible(cropButton, image ? 1 : 0)
        let what = image ? "image" : "page in view"
        gtk_widget_set_tooltip_text(rotateLeftButton, "Turn the \(what) left")
        gtk_widget_set_tooltip_text(rotateRightButton, "Turn the \(what) right")
    }

    private func updateButtons() {
        let markup = markup
        gtk_widget_set_sensitive(undoButton, markup.canUndo && !saving ? 1 : 0)
        gtk_widget_set_sensitive(redoButton, markup.canRedo && !saving ? 1 : 0)
        let refusal = MarkupSaving.refusal(model().path)
        gtk_widget_set_sensitive(doneButton, markup.hasPending && !saving && refusal == nil ? 1 : 0)
        let doneTip = refusal.map { "Cannot save: \($0)" } ?? (markup.hasPending ? "Save the changes into the file" : "Nothing to save yet")
        gtk_widget_set_tooltip_text(doneButton, doneTip)
        Accessibility.setDescription(doneButton, doneTip)
        gtk_widget_set_sensitive(revertButton, (markup.hasPending || saved[file] != nil) && !saving ? 1 : 0)
        gtk_widget_set_sensitive(saveCopyButton, markup.hasPending && !saving ? 1 : 0)
        gtk_widget_queue_draw(pages.area)
    }

    /// Closing was asked for once with changes not saved (the next request closes).
    private var warnedAtClose = false

    /// Whether the window may close now. With changes not saved, the first Esc, Space or
    /// close button only says so; the next closes and drops them.
    func mayClose() -> Bool {
        let count = markups.values.reduce(0) { $0 + $1.pending.count }
        guard count > 0, !warnedAtClose else { return true }
        warnedAtClose = true
        if saving {
            status("Still saving the changes: close again to leave before they are written")
        } else {
            status("\(count == 1 ? "1 change" : "\(count) changes") not saved: Done saves them; close again to drop them")
        }
        return false
    }

    /// The window shows another model's files (the previewer service's next file): the
    /// changes and saves kept by file index were the old model's.
    func forgetFiles() {
        markups = [:]
        saved = [:]
        selectedAnnotation = nil
        announcement = nil
        gtk_toggle_button_set_active(cast(toggle), 0)
    }

    // MARK: Making changes

    private var colour: PageAnnotation.Colour {
        let index = Int(gtk_drop_down_get_selected(OpaquePointer(colourChoice)))
        return Self.colours.indices.contains(index) ? Self.colours[index].colour : .highlightYellow
    }

    private var lineWidth: Double {
        let index = Int(gtk_drop_down_get_selected(OpaquePointer(widthChoice)))
        return Self.widths.indices.contains(index) ? Self.widths[index].points : 2
    }

    private func add(_ change: DocumentMarkup.Change, _ said: String) {
        markup.add(change)
        warnedAtClose = false
        updateButtons()
        status("\(said) · \(pendingText) · Done saves, Ctrl+Z undoes")
    }

    private var pendingText: String {
        let count = markup.pending.count
        return count == 1 ? "1 change not saved" : "\(count) changes not saved"
    }

    /// Highlight, Underline, Strike Through: the selected text, else the current find match.
    private func markText(_ kind: PageAnnotation.Kind) {
        let model = model()
        let verb = kind == .highlight ? "Highlighted" : kind == .underline ? "Underlined" : "Struck through"
        var target: (page: Int, boxes: [TextBox])?
        if let selection = model.selection, selection.file == model.fileIndex, case .success(let text)? = model.pageText(selection.page) {
            target = (selection.page, DocumentMarkup.lineBoxes(selection.boxes(in: text.layout)))
        } else if model.find.isActive, !model.find.isText, model.find.file == model.fileIndex, let match = model.find.currentMatch {
            target = (match.page, DocumentMarkup.lineBoxes(match.boxes))
        }
        guard let target, !target.boxes.isEmpty else {
            status("Select some text first (drag, double click or Ctrl+A), or find a word")
            return
        }
        model.clearSelection()
        add(.annotation(PageAnnotation(kind: kind, page: target.page, boxes: target.boxes, colour: colour)), "\(verb) on page \(target.page + 1)")
    }

    private func placeNote(page: Int, x: Double, y: Double) {
        let typed = String(cString: gtk_editable_get_text(OpaquePointer(noteText)))
        let text = typed.isEmpty ? "Note" : typed
        add(.annotation(PageAnnotation(kind: .note, page: page, boxes: [TextBox(x: x - 12, y: y - 12, width: 24, height: 24)],
                                       colour: colour, text: text)), "Note on page \(page + 1)")
    }

    /// A text box whose top left corner is where the page was clicked: the field's text set
    /// at the chosen size, wrapped to ``textBoxWidth`` or the page's edge.
    private func placeText(page: Int, x: Double, y: Double) {
        let text = String(cString: gtk_editable_get_text(OpaquePointer(noteText)))
        guard !text.isEmpty else {
            status("Text: type the text in the field first, then click where it goes")
            return
        }
        if let character = FreeTextLayout.unencodable(text) {
            status("Text: \(String(character).debugDescription) cannot be set: a text box has Western European letters only (Windows-1252)")
            return
        }
        let index = Int(gtk_drop_down_get_selected(OpaquePointer(textSizeChoice)))
        let size = Self.textSizes.indices.contains(index) ? Self.textSizes[index].points : 12
        let room = model().pageSize(page).map { $0.width - x - 6 } ?? Self.textBoxWidth
        guard let layout = FreeTextLayout(text: text, fontSize: size, maximumWidth: max(4 * size, min(Self.textBoxWidth, room))) else {
            status("Text: the text is too long for one box (at most \(FreeTextLayout.maximumLength) characters)")
            return
        }
        add(.annotation(PageAnnotation(kind: .freeText, page: page, boxes: [TextBox(x: x, y: y, width: layout.width, height: layout.height)],
                                       colour: colour, text: text, fontSize: size)), "Text on page \(page + 1)")
    }

    /// A click with no tool chosen: the topmost annotation of the file under it (not one
    /// already to be removed) is selected; false when there is none (the click then selects
    /// text). Links and pop-ups are passed over; a form field says it is not removed here.
    private func pickAnnotation(page: Int, x: Double, y: Double) -> Bool {
        // A press on the selected drawing's handle keeps it (the drag that follows resizes it).
        if onHandle(page: page, x: x, y: y) { return true }
        let had = selectedAnnotation != nil
        selectedAnnotation = nil
        guard let hit = annotation(page: page, x: x, y: y) else {
            if had { gtk_widget_queue_draw(pages.area) }
            return false
        }
        guard hit.isRemovable else {
            status("\(hit.kind): Markup does not remove it")
            return false
        }
        selectedAnnotation = (model().fileIndex, page, hit)
        let words = hit.text.map { ": “\($0.count > 60 ? String($0.prefix(60)) + "…" : $0)”" } ?? ""
        let drag = hit.isResizable ? "drag to move it or its corner to resize it, " : hit.isMovable ? "drag to move it, " : ""
        status("\(hit.kind) selected\(words) · \(drag)Delete removes it when Done saves")
        return true
    }

    /// The topmost annotation of the file at (x, y) on page `page` where it is shown now (moved
    /// ones where they were dragged to), not one to be removed, not a link or a pop-up; nil when
    /// there is none or the page's list has not come yet (it is asked for).
    private func annotation(page: Int, x: Double, y: Double) -> ExistingAnnotation? {
        let model = model()
        guard case .success(let text)? = model.pageText(page) else {
            model.wantText(pages: [page])
            return nil
        }
        let removed = markup.removals(onPage: page), moved = markup.moves(onPage: page)
        let slack = 2.0
        return text.annotations.last { annotation in
            let box = moved[annotation.index]?.placing(annotation.box) ?? annotation.box
            return !removed.contains(annotation.index) && annotation.isSelectable
                && x >= box.x - slack && x <= box.maxX + slack && y >= box.y - slack && y <= box.maxY + slack
        }
    }

    /// Where an annotation of the file is shown now: moved and resized as the changes say.
    private func shownBox(_ annotation: ExistingAnnotation, page: Int) -> TextBox {
        markup.moves(onPage: page)[annotation.index]?.placing(annotation.box) ?? annotation.box
    }

    /// Whether (x, y) on page `page` is within 8 pixels (at any zoom) of the selected drawing's handle.
    private func onHandle(page: Int, x: Double, y: Double) -> Bool {
        guard tool == .none, let chosen = selectedAnnotation, chosen.file == model().fileIndex, chosen.page == page,
              chosen.annotation.isResizable else { return false }
        let corner = Self.handle(of: shownBox(chosen.annotation, page: page))
        let scale = pages.pageScale(page)
        return abs(x - corner.x) <= 8 / max(scale.x, 0.01) && abs(y - corner.y) <= 8 / max(scale.y, 0.01)
    }

    /// The centre of the handle a selected drawing is resized by: its outline's bottom right corner.
    private static func handle(of box: TextBox) -> (x: Double, y: Double) { (box.maxX + 2, box.maxY + 2) }

    /// A drag with Select begins: on the selected drawing's corner handle it resizes that
    /// drawing; on an annotation that moves, it moves that annotation.
    private func startMoving(page: Int, x: Double, y: Double) -> Bool {
        guard tool == .none else { return false }
        if onHandle(page: page, x: x, y: y), let chosen = selectedAnnotation {
            moving = (page, chosen.annotation, AnnotationMove(page: page, index: chosen.annotation.index, kind: chosen.annotation.kind, dx: 0, dy: 0))
            resizing = true
            return true
        }
        guard let hit = annotation(page: page, x: x, y: y), hit.isMovable else { return false }
        moving = (page, hit, AnnotationMove(page: page, index: hit.index, kind: hit.kind, dx: 0, dy: 0))
        resizing = false
        return true
    }

    /// The annotation follows the drag; released, the move is a change (a drag of less than a
    /// point moves nothing), and the annotation stays selected where it was put.
    /// Resized, its corner follows the drag (the top left stays; at least 4 points a side, and
    /// from a hundredth to a hundred times its size in the file).
    private func moved(page: Int, from: (x: Double, y: Double), to: (x: Double, y: Double), finished: Bool) {
        guard let current = moving, current.page == page else { return }
        let (dx, dy) = (to.x - from.x, to.y - from.y)
        var change = AnnotationMove(page: page, index: current.annotation.index, kind: current.annotation.kind, dx: dx, dy: dy)
        if resizing {
            let box = shownBox(current.annotation, page: page), original = current.annotation.box
            func side(_ now: Double, _ by: Double, _ was: Double) -> Double {
                guard now > 0, was > 0 else { return 1 }
                let wanted = min(max(now + by, 4, was * AnnotationMove.scales.lowerBound), was * AnnotationMove.scales.upperBound)
                return wanted / now
            }
            change = AnnotationMove(page: page, index: current.annotation.index, kind: current.annotation.kind, dx: 0, dy: 0,
                                    scaleX: side(box.width, dx, original.width), scaleY: side(box.height, dy, original.height))
        }
        moving = (page, current.annotation, change)
        guard finished else { return }
        moving = nil
        let resized = resizing
        resizing = false
        selectedAnnotation = (model().fileIndex, page, current.annotation)
        guard abs(dx) + abs(dy) >= 1 else { return }
        add(.move(change), "\(current.annotation.kind) on page \(page + 1) \(resized ? "resized" : "moved")")
    }

    /// Delete: the selected annotation is removed when Done saves.
    func removeSelected() {
        guard let chosen = selectedAnnotation, chosen.file == model().fileIndex else {
            status("Click an annotation first (Markup on, no tool chosen): then Delete removes it")
            return
        }
        selectedAnnotation = nil
        add(.removal(AnnotationRemoval(page: chosen.page, index: chosen.annotation.index, kind: chosen.annotation.kind)),
            "\(chosen.annotation.kind) on page \(chosen.page + 1) removed when saved")
    }

    private func dragged(page: Int, from: (x: Double, y: Double), to: (x: Double, y: Double), finished: Bool) {
        // Released without having moved (a click): nothing was drawn, nothing is added.
        if finished, draft == nil { return }
        let kind: PageAnnotation.Kind
        let box: TextBox
        switch tool {
        case .none, .note, .text, .sign: return
        case .crop:
            // Kept inside the picture: what is dragged past its edges stops at them.
            guard let size = model().pageSize(page) else { return }
            let left = max(0, min(from.x, to.x)), top = max(0, min(from.y, to.y))
            let box = TextBox(x: left, y: top, width: max(0, min(size.width, max(from.x, to.x)) - left),
                              height: max(0, min(size.height, max(from.y, to.y)) - top))
            cropDraft = box
            // The draft marks a drag under way (a click without moving adds nothing).
            draft = PageAnnotation(kind: .square, page: page, boxes: [], colour: colour, lineWidth: 0)
            if finished {
                draft = nil
                cropDraft = nil
                guard box.width >= 1, box.height >= 1 else { return }
                add(.crop(box), "Cropped to \(Int(box.width.rounded())) × \(Int(box.height.rounded())) pixels when saved")
            } else {
                gtk_widget_queue_draw(pages.area)
            }
            return
        case .certify:
            let box = TextBox(x: min(from.x, to.x), y: min(from.y, to.y), width: abs(to.x - from.x), height: abs(to.y - from.y))
            draft = PageAnnotation(kind: .square, page: page, boxes: [box], colour: Self.ink, lineWidth: 1)
            if finished { certify(page: page, box: box) }
            return
        case .draw:
            drew(page: page, from: from, to: to, finished: finished)
            return
        case .line, .arrow:
            kind = tool == .line ? .line : .arrow
            box = TextBox(x: from.x, y: from.y, width: to.x - from.x, height: to.y - from.y)
        case .rectangle, .oval:
            kind = tool == .rectangle ? .square : .circle
            box = TextBox(x: min(from.x, to.x), y: min(from.y, to.y), width: abs(to.x - from.x), height: abs(to.y - from.y))
        }
        let annotation = PageAnnotation(kind: kind, page: page, boxes: [box], colour: colour, lineWidth: lineWidth)
        if finished {
            draft = nil
            let name = kind == .square ? "Rectangle" : kind == .circle ? "Oval" : kind == .arrow ? "Arrow" : "Line"
            add(.annotation(annotation), "\(name) on page \(page + 1)")
        } else {
            draft = annotation
        }
    }

    /// A freehand stroke: the drag's points as it goes (a point closer than half a point to
    /// the last one kept adds nothing), one ink annotation when the button is released.
    private func drew(page: Int, from: (x: Double, y: Double), to: (x: Double, y: Double), finished: Bool) {
        var stroke = draft.flatMap { $0.kind == .ink && $0.page == page ? $0.strokes.first : nil } ?? [PageAnnotation.Point(x: from.x, y: from.y)]
        if let last = stroke.last, abs(last.x - to.x) + abs(last.y - to.y) >= 0.5, stroke.count < PageAnnotation.maximumInkPoints {
            stroke.append(PageAnnotation.Point(x: to.x, y: to.y))
        }
        let annotation = PageAnnotation(kind: .ink, page: page, boxes: [], colour: colour, strokes: [stroke], lineWidth: lineWidth)
        if finished {
            draft = nil
            add(.annotation(annotation), "Drawing on page \(page + 1)")
        } else {
            draft = annotation
        }
    }

    /// The signature pad; Save keeps the signature and chooses Sign, Cancel leaves Sign off
    /// when there is no signature to place.
    private func drawSignature() {
        guard signatureDialog == nil else { return }
        let dialog = SignatureDialog(parent: window) { [unowned self] signature in
            self.signatureDialog = nil
            if let signature {
                if let failure = self.signatures.save(signature) {
                    self.status("The signature cannot be kept: \(failure)")
                    return
                }
                if self.tool == .sign {
                    self.status("Signature kept · Sign: click where it goes")
                } else {
                    gtk_toggle_button_set_active(cast(self.signButton), 1)
                }
            } else if self.signatures.load() == nil, self.tool == .sign {
                gtk_toggle_button_set_active(cast(self.selectButton), 1)
                self.status("No signature: Sign needs one drawn first")
            }
        }
        signatureDialog = dialog
        dialog.present()
        status("Draw your signature on the pad, then Save")
    }

    /// The kept signature, 150 points wide, centred where the page was clicked: one ink annotation.
    private func placeSignature(page: Int, x: Double, y: Double) {
        guard let signature = signatures.load() else {
            drawSignature()
            return
        }
        let strokes = signature.placed(centreX: x, centreY: y, width: 150)
        add(.annotation(PageAnnotation(kind: .ink, page: page, boxes: [], colour: Self.ink, strokes: strokes, lineWidth: lineWidth)),
            "Signature on page \(page + 1)")
    }

    /// The box dragged for a digital signature: the certificate dialog, then the signature
    /// saved into the file at once (a signature is saved alone, after the other changes).
    private func certify(page: Int, box: TextBox) {
        let clear = { [unowned self] in
            self.draft = nil
            gtk_widget_queue_draw(self.pages.area)
        }
        guard certificateDialog == nil, !saving else { return clear() }
        if markup.hasPending {
            clear()
            return status("Sign with Certificate: press Done first (a digital signature is saved after the other changes)")
        }
        guard box.width >= 8, box.height >= 8 else {
            clear()
            return status("Sign with Certificate: drag a larger box (at least 8 points each way)")
        }
        if let refusal = MarkupSaving.refusal(model().path) {
            clear()
            return status("Not signed: \(refusal)")
        }
        let dialog = CertificateDialog(parent: window, nicknames: certificates ?? []) { [unowned self] choice in
            self.certificateDialog = nil
            guard let choice else {
                clear()
                return self.status("Not signed")
            }
            self.sign(page: page, box: box, choice)
        }
        certificateDialog = dialog
        dialog.present()
        status("Choose the certificate to sign with")
    }

    /// Signs off the main loop (NSS may take a moment with a password); then the file is read again.
    private func sign(page: Int, box: TextBox, _ choice: CertificateDialog.Choice) {
        let model = model()
        guard let original = model.openedFile else {
            draft = nil
            return status("Not signed: the file is not open")
        }
        saving = true
        updateButtons()
        status("Signing with \(choice.nickname)…")
        let request = model.saveRequest, file = model.fileIndex, worker = model.configuration.worker
        let sandbox = model.configuration.sandbox, timeout = max(60, model.configuration.renderTimeout)
        // The signature drawn once (Sign's), when there is one, is the box's picture.
        let ink = signatures.load()?.fitted(in: box, share: SignatureField.inkShare) ?? []
        JoinableThread.detach(stackSize: 1 << 20) {
            let result = MarkupSaving.sign(page: page, box: box, ink: ink, nickname: choice.nickname, password: choice.password, reason: choice.reason,
                                           request: request, original: original, worker: worker, sandbox: sandbox, timeout: timeout)
            Signal.post { [weak self] in self?.signed(result, file: file, nickname: choice.nickname) }
        }
    }

    private func signed(_ result: Result<MarkupSaving.Saved, RenderProblem>, file: Int, nickname: String) {
        saving = false
        draft = nil
        let model = model()
        switch result {
        case .success(let written):
            saved[file] = written.after(saved[file])
            guard file == model.fileIndex else { return }
            announcement = "Signed with \(nickname) into \(model.fileName) · Revert puts the original back"
            reopen()
        case .failure(let problem):
            updateButtons()
            if file == model.fileIndex { status("Not signed: \(problem.message)") }
        }
    }

    /// A signature's colour: dark blue ink, whatever the colour chosen for marking.
    static let ink = PageAnnotation.Colour(red: 0.05, green: 0.1, blue: 0.45)

    private func turn(_ quarterTurns: Int) {
        if model().marksUpImage {
            add(.turn(page: 0, quarterTurns: quarterTurns), "The image turns \(quarterTurns > 0 ? "right" : "left") when saved")
            return
        }
        let page = model().page
        add(.turn(page: page, quarterTurns: quarterTurns), "Page \(page + 1) turns \(quarterTurns > 0 ? "right" : "left") when saved")
    }

    func undo() {
        guard markup.undo() != nil else {
            status("Nothing to undo")
            return
        }
        updateButtons()
        status(markup.hasPending ? "Undone · \(pendingText)" : "Undone · no changes left to save")
    }

    func redo() {
        guard markup.redo() != nil else {
            status("Nothing to redo")
            return
        }
        updateButtons()
        status("Redone · \(pendingText)")
    }

    // MARK: Done and Revert

    /// Done: the worker makes the update, written into the file in place off the main loop;
    /// then the file is read again.
    func done() {
        let model = model()
        guard markup.hasPending, !saving else { return }
        if let refusal = MarkupSaving.refusal(model.path) {
            status("Not saved: \(refusal)")
            return
        }
        if let original = model.openedFile, MarkupSaving.changedOnDisk(original) {
            askAboutChangedFile()
            return
        }
        save()
    }

    /// Another program wrote the file since it was opened: asked what to do (nothing is
    /// written until a choice is made).
    private func askAboutChangedFile() {
        guard changedFileDialog == nil else { return }
        let file = file
        let dialog = ChangedFileDialog(parent: window, fileName: model().fileName) { [unowned self] choice in
            self.changedFileDialog = nil
            guard file == self.file else { return }
            switch choice {
            case .cancel:
                self.status("Not saved: the file changed on disk since it was opened · \(self.pendingText)")
            case .saveCopy:
                self.saveCopy()
            case .saveOver:
                // Read again first: the update is made against the file as it is now.
                self.savingAfterReopen = file
                self.status("Reading the file again, then saving…")
                self.reopen()
            }
        }
        changedFileDialog = dialog
        dialog.present()
        status("The file changed on disk since it was opened: save over it, or into a copy?")
    }

    /// Writes the changes (into the file, or into `copy`) off the main loop.
    private func save(to copy: DocumentPath? = nil) {
        let model = model()
        guard let original = model.openedFile else {
            status("Not saved: the file is not open")
            return
        }
        saving = true
        LookTrace.mark("markup save asked (\(markup.pending.count) changes)")
        updateButtons()
        status(markup.pending.count == 1 ? "Saving 1 change…" : "Saving \(markup.pending.count) changes…")
        let changes = markup.changes, request = model.saveRequest, file = model.fileIndex, count = markup.pending.count
        let worker = model.configuration.worker, sandbox = model.configuration.sandbox
        let timeout = max(60, model.configuration.renderTimeout)
        JoinableThread.detach(stackSize: 1 << 20) {
            let result = MarkupSaving.save(changes, request: request, original: original, to: copy, worker: worker, sandbox: sandbox,
                                           timeout: timeout)
            Signal.post { [weak self] in self?.saved(result, file: file, count: count, copy: copy) }
        }
    }

    /// Save a Copy…: where the new file goes (GTK's file chooser, in the file's folder when it
    /// may be written, else the home folder), then the changes saved into it; the file shown
    /// stays as it is.
    private func saveCopy() {
        let model = model()
        guard markup.hasPending, !saving else { return }
        guard let dialog = gtk_file_chooser_native_new("Save a Copy", cast(window), GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel") else { return }
        let name = model.fileName
        if model.marksUpImage, let dot = name.lastIndex(of: "."), dot != name.startIndex {
            gtk_file_chooser_set_current_name(dialog, "\(name[..<dot]) (edited)\(name[dot...])")
        } else {
            let stem = name.lowercased().hasSuffix(".pdf") ? String(name.dropLast(4)) : name
            gtk_file_chooser_set_current_name(dialog, "\(stem) (marked).pdf")
        }
        let bytes = model.path.bytes
        let folder = bytes.lastIndex(of: UInt8(ascii: "/")).map { String(decoding: bytes[..<$0], as: UTF8.self) } ?? "."
        let start = access(folder, W_OK) == 0 ? folder : String(cString: g_get_home_dir())
        let location = g_file_new_for_path(start)
        gtk_file_chooser_set_current_folder(dialog, location, nil)
        g_object_unref(UnsafeMutableRawPointer(location))
        gtk_native_dialog_set_modal(UnsafeMutablePointer<GtkNativeDialog>(dialog), 1)
        Signal.connectInt(UnsafeMutableRawPointer(dialog), "response") { [weak self] response in
            defer { g_object_unref(UnsafeMutableRawPointer(dialog)) }
            guard let self, response == GTK_RESPONSE_ACCEPT.rawValue,
                  let chosen = gtk_file_chooser_get_file(dialog) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(chosen)) }
            guard let raw = g_file_get_path(chosen) else { return }
            defer { g_free(raw) }
            self.save(to: DocumentPath(String(cString: raw)))
        }
        gtk_native_dialog_show(UnsafeMutablePointer<GtkNativeDialog>(dialog))
    }

    private func saved(_ result: Result<MarkupSaving.Saved, RenderProblem>, file: Int, count: Int, copy: DocumentPath?) {
        saving = false
        selectedAnnotation = nil
        LookTrace.mark("markup saved (written, or refused)")
        let model = model()
        switch result {
        case .success where copy != nil:
            markups[file]?.clear()
            updateButtons()
            if file == model.fileIndex, let copy {
                status("Saved \(count == 1 ? "1 change" : "\(count) changes") into a copy: \(copy)")
            }
        case .success(let written):
            // Revert goes back to the bytes before the first save of this window.
            saved[file] = written.after(saved[file])
            markups[file]?.clear()
            guard file == model.fileIndex else { return }
            announcement = "Saved \(count == 1 ? "1 change" : "\(count) changes") into \(model.fileName) · Revert puts the original back"
            reopen()
        case .failure(let problem):
            updateButtons()
            if file == model.fileIndex { status("Not saved: \(problem.message)") }
        }
    }

    /// Revert: the changes not saved are dropped, and a file saved from this window gets its
    /// original bytes back.
    func revert() {
        let model = model()
        guard !saving else { return }
        let dropped = markup.pending.count
        markups[file] = nil
        selectedAnnotation = nil
        guard let written = saved[file] else {
            updateButtons()
            status(dropped == 0 ? "Nothing to revert" : "Dropped \(dropped == 1 ? "1 change" : "\(dropped) changes") not saved")
            return
        }
        if let problem = MarkupSaving.revert(model.path, to: written) {
            updateButtons()
            status("Not reverted: \(problem.message)")
            return
        }
        saved[file] = nil
        announcement = "Reverted \(model.fileName) to its original bytes"
        reopen()
    }

    // MARK: Drawing

    /// The changes waiting for page `page`, over it: highlights multiplied into the page, lines
    /// under or through the text, notes, shapes, and a pending turn's label.
    private func draw(page: Int, _ cairo: OpaquePointer, x: Double, y: Double, sx: Double, sy: Double, surface: OpaquePointer) {
        formFields?.draw(page: page, cairo, x: x, y: y, sx: sx, sy: sy)
        let markup = markup
        var annotations = markup.annotations(onPage: page)
        if let draft, draft.page == page { annotations.append(draft) }
        for annotation in annotations {
            let colour = annotation.colour
            cairo_set_source_rgb(cairo, colour.red, colour.green, colour.blue)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            cairo_set_line_width(cairo, max(1, annotation.lineWidth * sx))
            func rectangle(_ box: TextBox) { cairo_rectangle(cairo, x + box.x * sx, y + box.y * sy, box.width * sx, box.height * sy) }
            switch annotation.kind {
            case .highlight:
                cairo_set_operator(cairo, CAIRO_OPERATOR_MULTIPLY)
                for box in annotation.boxes { rectangle(box) }
                cairo_fill(cairo)
            case .underline, .strikeOut:
                for box in annotation.boxes {
                    let lineY = annotation.kind == .underline ? box.maxY - box.height * 0.08 : box.y + box.height * 0.55
                    cairo_set_line_width(cairo, max(1, box.height * 0.07 * sy))
                    cairo_move_to(cairo, x + box.x * sx, y + lineY * sy)
                    cairo_line_to(cairo, x + box.maxX * sx, y + lineY * sy)
                    cairo_stroke(cairo)
                }
            case .note:
                guard let box = annotation.boxes.first else { continue }
                rectangle(box)
                cairo_fill_preserve(cairo)
                cairo_set_source_rgb(cairo, 0.2, 0.2, 0.2)
                cairo_set_line_width(cairo, 1)
                cairo_stroke(cairo)
            case .square:
                guard let box = annotation.boxes.first else { continue }
                rectangle(box)
                cairo_stroke(cairo)
            case .circle:
                guard let box = annotation.boxes.first, box.width > 0, box.height > 0 else { continue }
                cairo_save(cairo)
                cairo_translate(cairo, x + (box.x + box.width / 2) * sx, y + (box.y + box.height / 2) * sy)
                cairo_scale(cairo, box.width / 2 * sx, box.height / 2 * sy)
                cairo_arc(cairo, 0, 0, 1, 0, 2 * Double.pi)
                cairo_restore(cairo)
                cairo_stroke(cairo)
            case .line, .arrow:
                guard let box = annotation.boxes.first else { continue }
                cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
                cairo_move_to(cairo, x + box.x * sx, y + box.y * sy)
                cairo_line_to(cairo, x + box.maxX * sx, y + box.maxY * sy)
                // The open arrowhead the saved appearance draws.
                if annotation.kind == .arrow,
                   let (left, right) = PageAnnotation.arrowhead(tail: .init(x: box.x, y: box.y), tip: .init(x: box.maxX, y: box.maxY),
                                                                width: annotation.lineWidth) {
                    cairo_move_to(cairo, x + left.x * sx, y + left.y * sy)
                    cairo_line_to(cairo, x + box.maxX * sx, y + box.maxY * sy)
                    cairo_line_to(cairo, x + right.x * sx, y + right.y * sy)
                }
                cairo_stroke(cairo)
                cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
            case .freeText:
                // The lines the saved appearance sets, in Helvetica's metric twin.
                guard let box = annotation.boxes.first,
                      let layout = FreeTextLayout(text: annotation.text ?? "", fontSize: annotation.fontSize, maximumWidth: box.width + 0.01)
                else { continue }
                cairo_select_font_face(cairo, "Helvetica", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
                cairo_set_font_size(cairo, layout.fontSize * sy)
                for (index, line) in layout.lines.enumerated() {
                    cairo_move_to(cairo, x + (box.x + FreeTextLayout.padding) * sx, y + (box.y + layout.baseline(index)) * sy)
                    cairo_show_text(cairo, line)
                }
            case .ink:
                cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
                cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
                for stroke in annotation.strokes {
                    guard let first = stroke.first else { continue }
                    cairo_move_to(cairo, x + first.x * sx, y + first.y * sy)
                    for point in stroke.dropFirst() { cairo_line_to(cairo, x + point.x * sx, y + point.y * sy) }
                    if stroke.count == 1 { cairo_line_to(cairo, x + first.x * sx, y + first.y * sy) }
                    cairo_stroke(cairo)
                }
                cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
                cairo_set_line_join(cairo, CAIRO_LINE_JOIN_MITER)
            }
        }
        // Annotations of the file moved: veiled where they were and their pixels painted where
        // they go; to be removed: veiled, outlined in red; the one selected: outlined in blue.
        if case .success(let text)? = model().pageText(page) {
            let removed = markup.removals(onPage: page)
            var moved = markup.moves(onPage: page)
            if let moving, moving.page == page {
                let index = moving.annotation.index
                moved[index] = moved[index].map { $0.followed(by: moving.change) } ?? moving.change
            }
            for existing in text.annotations where !removed.contains(existing.index) {
                guard let move = moved[existing.index] else { continue }
                let box = existing.box, goes = move.placing(box)
                cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
                cairo_set_source_rgba(cairo, 1, 1, 1, 0.75)
                cairo_rectangle(cairo, x + (box.x - 1) * sx, y + (box.y - 1) * sy, (box.width + 2) * sx, (box.height + 2) * sy)
                cairo_fill(cairo)
                // The page's own pixels of the annotation, moved and stretched: the page surface
                // is drawn at the slot's size, its box's top left put on the new box's and
                // scaled, clipped to the new box.
                cairo_save(cairo)
                cairo_rectangle(cairo, x + goes.x * sx, y + goes.y * sy, goes.width * sx, goes.height * sy)
                cairo_clip(cairo)
                let pixelsWide = Double(cairo_image_surface_get_width(surface)), pixelsHigh = Double(cairo_image_surface_get_height(surface))
                if let size = model().pageSize(page), pixelsWide > 0, pixelsHigh > 0 {
                    cairo_translate(cairo, x + goes.x * sx, y + goes.y * sy)
                    cairo_scale(cairo, move.scaleX, move.scaleY)
                    cairo_translate(cairo, -box.x * sx, -box.y * sy)
                    cairo_scale(cairo, size.width * sx / pixelsWide, size.height * sy / pixelsHigh)
                    cairo_set_source_surface(cairo, surface, 0, 0)
                    cairo_paint(cairo)
                }
                cairo_restore(cairo)
            }
            let chosen = selectedAnnotation.flatMap { $0.file == model().fileIndex && $0.page == page ? $0.annotation.index : nil }
            for existing in text.annotations where removed.contains(existing.index) || existing.index == chosen {
                let box = removed.contains(existing.index) ? existing.box : moved[existing.index]?.placing(existing.box) ?? existing.box
                cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
                cairo_rectangle(cairo, x + (box.x - 2) * sx, y + (box.y - 2) * sy, (box.width + 4) * sx, (box.height + 4) * sy)
                if removed.contains(existing.index) {
                    cairo_set_source_rgba(cairo, 1, 1, 1, 0.8)
                    cairo_fill_preserve(cairo)
                    cairo_set_source_rgb(cairo, 0.8, 0.1, 0.1)
                } else {
                    cairo_set_source_rgba(cairo, 0.21, 0.52, 0.89, 0.15)
                    cairo_fill_preserve(cairo)
                    cairo_set_source_rgb(cairo, 0.21, 0.52, 0.89)
                }
                var dashes = [4.0, 3.0]
                cairo_set_dash(cairo, &dashes, 2, 0)
                cairo_set_line_width(cairo, 1.5)
                cairo_stroke(cairo)
                cairo_set_dash(cairo, nil, 0, 0)
                // A selected drawing's handle: its corner dragged resizes it.
                if !removed.contains(existing.index), existing.isResizable {
                    let corner = Self.handle(of: box)
                    cairo_rectangle(cairo, x + corner.x * sx - 4.5, y + corner.y * sy - 4.5, 9, 9)
                    cairo_set_source_rgb(cairo, 1, 1, 1)
                    cairo_fill_preserve(cairo)
                    cairo_set_source_rgb(cairo, 0.21, 0.52, 0.89)
                    cairo_set_line_width(cairo, 2)
                    cairo_stroke(cairo)
                }
            }
        }
        // An image's crop: what goes is veiled, the box kept framed.
        if let crop = cropDraft ?? markup.crop, page == 0, let size = model().pageSize(page) {
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(cairo, x, y, size.width * sx, size.height * sy)
            cairo_rectangle(cairo, x + crop.x * sx, y + crop.y * sy, crop.width * sx, crop.height * sy)
            cairo_set_source_rgba(cairo, 0, 0, 0, 0.6)
            cairo_fill(cairo)
            cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
            cairo_rectangle(cairo, x + crop.x * sx, y + crop.y * sy, crop.width * sx, crop.height * sy)
            cairo_set_source_rgb(cairo, 1, 1, 1)
            var dashes = [6.0, 4.0]
            cairo_set_dash(cairo, &dashes, 2, 0)
            cairo_set_line_width(cairo, 2)
            cairo_stroke(cairo)
            cairo_set_dash(cairo, nil, 0, 0)
        }
        let turn = markup.turn(ofPage: page)
        if turn != 0 {
            let text = turn == 1 ? "Turns right when saved" : turn == 3 ? "Turns left when saved" : "Turns upside down when saved"
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            cairo_set_source_rgba(cairo, 0.1, 0.1, 0.1, 0.75)
            cairo_rectangle(cairo, x + 8, y + 8, 190, 24)
            cairo_fill(cairo)
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_select_font_face(cairo, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(cairo, 13)
            cairo_move_to(cairo, x + 16, y + 25)
            cairo_show_text(cairo, text)
        }
    }
}
