import CGtk
import Quire
import QuireViewer

/// Markup's signature pad: a window over the viewer where the person draws a signature with
/// the pointer (one stroke a drag) or types their name (written in a cursive face and traced
/// as ink, ``TypedSignature``), Clear starts again, Save hands it back (to be kept in the
/// ``SignatureStore``), Cancel (or closing the window) hands back nothing.
@MainActor
final class SignatureDialog {
    private let window = gtk_window_new()!
    private let area = gtk_drawing_area_new()!
    private let clearButton = Accessibility.textButton("Clear")
    private let cancelButton = Accessibility.textButton("Cancel")
    private let saveButton = Accessibility.textButton("Save")
    /// The name typed instead of drawing.
    private let nameEntry = gtk_entry_new()!
    /// What is drawn with the pointer, or the typed name's strokes fitted to the pad.
    private var strokes: [[PageAnnotation.Point]] = []
    private var start: (x: Double, y: Double)?
    private let done: (SignatureStore.Signature?) -> Void
    private var closed = false

    /// The pad's size in pixels.
    static let size = (width: Int32(480), height: Int32(200))

    /// `done` is called once: with the signature drawn (Save), or nil.
    init(parent: UnsafeMutablePointer<GtkWidget>, done: @escaping (SignatureStore.Signature?) -> Void) {
        self.done = done
        ModalDialog.configure(window, title: "Draw Your Signature", parent: parent)
        build()
        connect()
    }

    /// Shows the pad, the name field ready for typing (the pointer draws whatever has the focus).
    func present() {
        gtk_window_present(cast(window))
        gtk_widget_grab_focus(nameEntry)
    }

    private func build() {
        let box = ModalDialog.column(hint: "Sign with the pointer above the line, or type your name below. It is kept for the next documents you sign.",
                                     width: 50)
        gtk_widget_set_size_request(area, Self.size.width, Self.size.height)
        Accessibility.setLabel(area, "Signature Pad")
        gtk_box_append(cast(box), area)
        gtk_entry_set_placeholder_text(cast(nameEntry), "Or type your name")
        Accessibility.setLabel(nameEntry, "Type Your Name")
        gtk_entry_set_max_length(cast(nameEntry), Int32(TypedSignature.maximumLength))
        gtk_box_append(cast(box), nameEntry)
        gtk_widget_set_sensitive(saveButton, 0)
        gtk_widget_set_tooltip_text(clearButton, "Start the signature again")
        gtk_widget_set_tooltip_text(saveButton, "Keep this signature and place it on the page")
        ModalDialog.addButtons([clearButton, cancelButton, saveButton], to: box)
        gtk_window_set_child(cast(window), box)
    }

    private func connect() {
        Signal.setDrawFunction(area) { [unowned self] cairo, width, height in self.draw(cairo, Double(width), Double(height)) }
        let drag = gtk_gesture_drag_new()!
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-begin") { [unowned self] x, y in
            // Drawing after typing starts a drawn signature.
            if gtk_entry_get_text_length(cast(self.nameEntry)) > 0 {
                gtk_editable_set_text(OpaquePointer(self.nameEntry), "")
                self.strokes = []
            }
            self.start = (x, y)
            self.strokes.append([PageAnnotation.Point(x: x, y: y)])
            gtk_widget_queue_draw(self.area)
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-update") { [unowned self] dx, dy in
            guard let start = self.start, var stroke = self.strokes.popLast() else { return }
            let point = PageAnnotation.Point(x: start.x + dx, y: start.y + dy)
            if let last = stroke.last, abs(last.x - point.x) + abs(last.y - point.y) >= 0.5,
               self.strokes.joined().count + stroke.count < PageAnnotation.maximumInkPoints {
                stroke.append(point)
            }
            self.strokes.append(stroke)
            gtk_widget_set_sensitive(self.saveButton, SignatureStore.Signature(strokes: self.strokes) == nil ? 0 : 1)
            gtk_widget_queue_draw(self.area)
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-end") { [unowned self] _, _ in self.start = nil }
        gtk_widget_add_controller(area, drag)
        Signal.connect(nameEntry, "changed") { [unowned self] in self.typed() }
        Signal.connect(nameEntry, "activate") { [unowned self] in
            guard let signature = SignatureStore.Signature(strokes: self.strokes) else { return }
            self.finish(signature, destroy: true)
        }
        Signal.connect(clearButton, "clicked") { [unowned self] in
            gtk_editable_set_text(OpaquePointer(self.nameEntry), "")
            self.strokes = []
            gtk_widget_set_sensitive(self.saveButton, 0)
            gtk_widget_queue_draw(self.area)
        }
        Signal.connect(cancelButton, "clicked") { [unowned self] in self.finish(nil, destroy: true) }
        Signal.connect(saveButton, "clicked") { [unowned self] in
            guard let signature = SignatureStore.Signature(strokes: self.strokes) else { return }
            self.finish(signature, destroy: true)
        }
        Signal.connectReturning(window, "close-request") { [unowned self] in
            self.finish(nil, destroy: false)   // the window closes itself
            return false
        }
    }

    /// The typed name, written across the pad above the line (or nothing when it is empty).
    private func typed() {
        guard let text = gtk_editable_get_text(OpaquePointer(nameEntry)).map({ String(cString: $0) }) else { return }
        let written = TypedSignature.strokes(text)
        let annotation = PageAnnotation(kind: .ink, page: 0, boxes: [], strokes: written)
        if let bounds = annotation.strokeBounds, bounds.width > 0, bounds.height > 0 {
            let width = Double(Self.size.width), height = Double(Self.size.height)
            let scale = min((width - 48) / bounds.width, height * 0.6 / bounds.height, 1.5)
            // Centred across, its foot on the line.
            let left = (width - bounds.width * scale) / 2, bottom = height * 0.75 - 2
            strokes = written.map { stroke in
                stroke.map { PageAnnotation.Point(x: left + ($0.x - bounds.x) * scale, y: bottom - (bounds.y + bounds.height - $0.y) * scale) }
            }
        } else {
            strokes = []
        }
        gtk_widget_set_sensitive(saveButton, SignatureStore.Signature(strokes: strokes) == nil ? 0 : 1)
        gtk_widget_queue_draw(area)
    }

    private func finish(_ signature: SignatureStore.Signature?, destroy: Bool) {
        guard !closed else { return }
        closed = true
        if destroy { gtk_window_destroy(cast(window)) }
        done(signature)
    }

    /// White paper, a grey line to sign on, the strokes in dark ink.
    private func draw(_ cairo: OpaquePointer, _ width: Double, _ height: Double) {
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_paint(cairo)
        cairo_set_source_rgb(cairo, 0.75, 0.75, 0.75)
        cairo_set_line_width(cairo, 1)
        cairo_move_to(cairo, 24, height * 0.75 + 0.5)
        cairo_line_to(cairo, width - 24, height * 0.75 + 0.5)
        cairo_stroke(cairo)
        cairo_set_source_rgb(cairo, 0.05, 0.1, 0.35)
        cairo_set_line_width(cairo, 2.5)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        for stroke in strokes {
            guard let first = stroke.first else { continue }
            cairo_move_to(cairo, first.x, first.y)
            for point in stroke.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
            if stroke.count == 1 { cairo_line_to(cairo, first.x, first.y) }
            cairo_stroke(cairo)
        }
    }
}
