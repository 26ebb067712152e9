import CGtk
import Quire
import QuireViewer
import QuireRenderService
import Synchronization

/// The pages of the current file in one continuous vertical scroll, drawn with cairo at the
/// screen's scale. Nothing is made per page up front: the layout is a list of slots sized from
/// the pages' sizes (the worker's facts), the view draws a white placeholder for each page in
/// view and asks the model (its render thread and worker) for the pages in view, then the
/// neighbours ahead; each page is painted when it arrives. Converted pages are kept in a cache bounded in bytes, so
/// paging through 1000 pages keeps memory flat. Zoom: Ctrl +/−/0, Ctrl+scroll and pinch.
@MainActor
final class PageView {
    var model: ViewerModel
    /// The widget to pack: the drawing area with its two scrollbars.
    let root: UnsafeMutablePointer<GtkWidget>
    let area: UnsafeMutablePointer<GtkWidget>
    private let vertical: OpaquePointer  // GtkAdjustment
    private let verticalBar: UnsafeMutablePointer<GtkWidget>
    private let horizontalBar: UnsafeMutablePointer<GtkWidget>
    private let horizontal: OpaquePointer
    /// Called when the page in view or the zoom changes.
    var onChange: () -> Void = {}
    /// Called once, in the frame that first paints a page (or a page's problem).
    var onFirstPage: (() -> Void)?
    /// Called when a page of the current file cannot be drawn (0-based page, why).
    var onPageProblem: (Int, String) -> Void = { _, _ in }
    /// Takes what the render thread delivered (the window's ``LookWindow/takeUpdates()``): a
    /// frame takes the pages that arrived before it draws, so a page that came just before the
    /// frame is painted in it (its main-loop hand-over may come after the frame).
    var takeUpdates: () -> Void = {}

    private struct Slot { var y: Double; var width: Double; var height: Double }
    private var slots: [Slot] = []
    private var contentWidth = 0.0
    private var viewWidth = 0.0, viewHeight = 0.0
    private var scale = 1
    private var tracking = true
    private let margin = 12.0, gap = 12.0

    /// Converted pages, least recently painted first; at most 32 MiB.
    private let painted = PaintedPages(byteLimit: 32 << 20)
    /// The pages of the last frame: never dropped from the cache, whatever its size.
    private var onScreen: Set<PageRenderJob> = []
    /// Pages the renderer could not draw, with why (not asked for again).
    private var failed: [PageRenderJob: String] = [:]
    /// Pages wanted beyond those in view: this many after the view, one before. One is enough
    /// for Page Down (a page renders in ~15–25 ms, faster than key repeat); each page kept ahead
    /// is ~1.5 MB at a fitted A4 page in a 1280×900 window.
    private let ahead = 1
    private var pinchStart = 1.0
    private var tracedFirstPage = false, tracedFirstFrame = false

    /// Bytes of converted pages held now (for tests and the trace).
    var heldBytes: Int { painted.bytes }

    /// Plays the current file when it is an animated image: its frame shown is painted in place
    /// of page 1.
    let player: AnimationPlayer

    init(model: ViewerModel) {
        self.model = model
        player = AnimationPlayer(model: model)
        vertical = OpaquePointer(gtk_adjustment_new(0, 0, 1, 40, 400, 1))
        horizontal = OpaquePointer(gtk_adjustment_new(0, 0, 1, 40, 400, 1))
        area = gtk_drawing_area_new()
        gtk_widget_set_hexpand(area, 1)
        gtk_widget_set_vexpand(area, 1)
        gtk_widget_set_focusable(area, 1)
        Accessibility.setLabel(area, "Pages")
        verticalBar = gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, UnsafeMutablePointer(vertical))!
        horizontalBar = gtk_scrollbar_new(GTK_ORIENTATION_HORIZONTAL, UnsafeMutablePointer(horizontal))!
        // Shown only when there is something to scroll (configureAdjustments).
        gtk_widget_set_visible(horizontalBar, 0)
        Accessibility.setLabel(verticalBar, "Scroll pages")
        Accessibility.setLabel(horizontalBar, "Scroll across the page")
        let grid = gtk_grid_new()!
        gtk_grid_attach(cast(grid), area, 0, 0, 1, 1)
        gtk_grid_attach(cast(grid), verticalBar, 1, 0, 1, 1)
        gtk_grid_attach(cast(grid), horizontalBar, 0, 1, 1, 1)
        gtk_widget_add_css_class(grid, "view")
        root = grid
        player.redraw = { [unowned self] in gtk_widget_queue_draw(self.area) }

        Signal.setDrawFunction(area) { [unowned self] cairo, width, height in
            self.draw(cairo, width: Double(width), height: Double(height))
        }
        Signal.connectResize(area) { [unowned self] width, height in
            LookTrace.mark("view laid out \(width)x\(height)")
            self.viewWidth = Double(width)
            self.viewHeight = Double(height)
            self.relayout(keepingPage: self.model.page)
        }
        Signal.connect(UnsafeMutableRawPointer(vertical), "value-changed") { [unowned self] in
            if self.tracking { self.trackPage() }
            gtk_widget_queue_draw(self.area)
        }
        Signal.connect(UnsafeMutableRawPointer(horizontal), "value-changed") { [unowned self] in
            gtk_widget_queue_draw(self.area)
        }
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES)!
        Signal.connectScroll(scroll) { [unowned self] dx, dy in
            let state = gtk_event_controller_get_current_event_state(scroll)
            if state.rawValue & GDK_CONTROL_MASK.rawValue != 0 {
                if dy < 0 { self.zoom { self.model.zoomIn() } } else if dy > 0 { self.zoom { self.model.zoomOut() } }
                return true
            }
            self.scrollBy(x: dx * 40, y: dy * 40)
            return true
        }
        gtk_widget_add_controller(area, scroll)
        // Pinch (touchpad or touch screen): zoom relative to the zoom when the fingers went down.
        let pinch = gtk_gesture_zoom_new()!
        Signal.connectZoomGesture(pinch, begin: { [unowned self] in self.pinchStart = self.model.zoom }) { [unowned self] scale in
            self.zoom { self.model.setZoom(pinchScale: scale, from: self.pinchStart) }
        }
        gtk_widget_add_controller(area, pinch)
        // Selecting text: drag from a character to another; double click a word, triple a line.
        // With Alt held a drag takes the file out instead (below), and selects nothing.
        let drag = gtk_gesture_drag_new()!
        let altHeld = { (controller: OpaquePointer) in
            gtk_event_controller_get_current_event_state(controller).rawValue & GDK_ALT_MASK.rawValue != 0
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-begin") { [unowned self] x, y in
            if altHeld(drag) { self.anchor = nil } else { self.dragBegan(x: x, y: y) }
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-update") { [unowned self] dx, dy in
            guard !altHeld(drag) else { return }
            // A stroke keeps every position the pointer passed, also those GTK folded into this
            // event when a frame came late (a busy machine): drawn fast, a curve keeps its shape.
            if self.shapeDrag != nil {
                for (x, y) in Self.foldedPositions(drag, dx: dx, dy: dy) { self.dragMoved(dx: x, dy: y, redraw: false) }
            }
            self.dragMoved(dx: dx, dy: dy)
        }
        Signal.connectPoint(UnsafeMutableRawPointer(drag), "drag-end") { [unowned self] dx, dy in
            if !altHeld(drag) { self.dragEnded(dx: dx, dy: dy) }
        }
        gtk_widget_add_controller(area, drag)
        // Alt+drag on a page drags the file out, as the header's file icon does.
        let out = gtk_drag_source_new()!
        gtk_drag_source_set_actions(out, GDK_ACTION_COPY)
        Signal.connectDragPrepare(out) { [unowned self] in altHeld(out) ? self.dragOutContent() : nil }
        gtk_widget_add_controller(area, out)
        let click = gtk_gesture_click_new()!
        Signal.connectPressed(UnsafeMutableRawPointer(click)) { [unowned self] presses, x, y in self.clicked(presses, x: x, y: y) }
        gtk_widget_add_controller(area, click)
        let motion = gtk_event_controller_motion_new()!
        Signal.connectPoint(UnsafeMutableRawPointer(motion), "motion") { [unowned self] x, y in self.pointerMoved(x: x, y: y) }
        gtk_widget_add_controller(area, motion)
    }

    /// While set (Markup is shown), the cursor the pointer takes over a page point (page, x, y):
    /// a CSS cursor name ("nwse-resize" over a handle), nil for the default.
    var cursorAt: ((Int, Double, Double) -> String?)?
    private var cursorName: String?

    private func pointerMoved(x: Double, y: Double) {
        let name = cursorAt.flatMap { at in pagePoint(x: x, y: y).flatMap { at($0.page, $0.x, $0.y) } }
        guard name != cursorName else { return }
        cursorName = name
        gtk_widget_set_cursor_from_name(area, name)
    }

    /// What Alt+drag on a page offers (the window's files), nil for no drag.
    var dragOutContent: () -> UnsafeMutablePointer<GdkContentProvider>? = { nil }

    // MARK: Selecting text

    /// Where a drag or click began: page and point on it (page points); where it is now.
    private var anchor: (page: Int, x: Double, y: Double)?
    private var dragPoint: (x: Double, y: Double)?
    /// How many presses in a row began the selection (1 drag, 2 word, 3 line).
    private var selectionUnit = 1

    /// Where box `box` of page `page` (page points from the top left) is in the view, in the
    /// view's pixels; nil while the page has no slot.
    func viewRect(page: Int, box: TextBox) -> GdkRectangle? {
        guard slots.indices.contains(page), let size = model.pageSize(page), size.width > 0, size.height > 0 else { return nil }
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(vertical))
        let left = gtk_adjustment_get_value(UnsafeMutablePointer(horizontal))
        let totalWidth = max(contentWidth + 2 * margin, viewWidth)
        let slot = slots[page]
        let sx = (totalWidth - slot.width) / 2 - left, sy = slot.y - top
        let scaleX = slot.width / size.width, scaleY = slot.height / size.height
        return GdkRectangle(x: Int32((sx + box.x * scaleX).rounded()), y: Int32((sy + box.y * scaleY).rounded()),
                            width: Int32(max(1, (box.width * scaleX).rounded())), height: Int32(max(1, (box.height * scaleY).rounded())))
    }

    /// The page under view point (x, y), with the point in that page's points.
    private func pagePoint(x: Double, y: Double) -> (page: Int, x: Double, y: Double)? {
        guard !slots.isEmpty else { return nil }
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(vertical))
        let left = gtk_adjustment_get_value(UnsafeMutablePointer(horizontal))
        let totalWidth = max(contentWidth + 2 * margin, viewWidth)
        for index in pages(from: top + y - gap, height: 2 * gap) {
            let slot = slots[index]
            let sx = (totalWidth - slot.width) / 2 - left, sy = slot.y - top
            guard y >= sy - gap / 2, y <= sy + slot.height + gap / 2, let size = model.pageSize(index) else { continue }
            return (index, (x - sx) / slot.width * size.width, (y - sy) / slot.height * size.height)
        }
        return nil
    }

    private func dragBegan(x: Double, y: Double) {
        anchor = pagePoint(x: x, y: y)
        dragPoint = nil
        draggingAnnotation = false
        if shapeDrag == nil, let anchor, let start = annotationDragStart, start(anchor.page, anchor.x, anchor.y) {
            draggingAnnotation = true
            return
        }
        if let anchor, shapeDrag == nil { model.wantText(pages: [anchor.page]) }
    }

    /// The positions the drag's current motion event stands for before its own (GDK folds the
    /// motions of one frame into one event and keeps them as its history), as offsets from the
    /// drag's start like (`dx`, `dy`).
    private static func foldedPositions(_ drag: OpaquePointer, dx: Double, dy: Double) -> [(Double, Double)] {
        guard let event = gtk_event_controller_get_current_event(drag) else { return [] }
        var x = 0.0, y = 0.0
        guard gdk_event_get_position(event, &x, &y) != 0 else { return [] }
        var count: guint = 0
        guard let history = gdk_event_get_history(event, &count) else { return [] }
        defer { g_free(history) }
        let both = GDK_AXIS_FLAG_X.rawValue | GDK_AXIS_FLAG_Y.rawValue
        return (0..<Int(count)).compactMap { index in
            let coord = history[index]
            guard coord.flags.rawValue & both == both else { return nil }
            return (dx + coord.axes.1 - x, dy + coord.axes.2 - y)   // axes[GDK_AXIS_X], axes[GDK_AXIS_Y]
        }
    }

    private func dragMoved(dx: Double, dy: Double, redraw: Bool = true) {
        guard let anchor, abs(dx) + abs(dy) > 3 else { return }
        dragPoint = (anchor.x + dx / pageScale(anchor.page).x, anchor.y + dy / pageScale(anchor.page).y)
        if draggingAnnotation, let point = dragPoint {
            annotationDrag?(anchor.page, (anchor.x, anchor.y), point, false)
            if redraw { gtk_widget_queue_draw(area) }
            return
        }
        if let shapeDrag, let point = dragPoint {
            shapeDrag(anchor.page, (anchor.x, anchor.y), point, false)
            if redraw { gtk_widget_queue_draw(area) }
            return
        }
        selectionUnit = 1
        updateSelection()
    }

    private func dragEnded(dx: Double, dy: Double) {
        // Every drag ends, however near its start it ends (a freehand loop comes back to it):
        // the tool knows whether it drew anything (a click draws nothing).
        if draggingAnnotation, let anchor {
            draggingAnnotation = false
            let scale = pageScale(anchor.page)
            annotationDrag?(anchor.page, (anchor.x, anchor.y), (anchor.x + dx / scale.x, anchor.y + dy / scale.y), true)
            self.anchor = nil
            gtk_widget_queue_draw(area)
            return
        }
        guard let shapeDrag, let anchor else { return }
        shapeDrag(anchor.page, (anchor.x, anchor.y), (anchor.x + dx / pageScale(anchor.page).x, anchor.y + dy / pageScale(anchor.page).y), true)
        self.anchor = nil
        gtk_widget_queue_draw(area)
    }

    // MARK: Markup

    /// While set (a Markup shape tool is chosen), a drag on a page draws a shape instead of
    /// selecting text: (page, where the drag began, where it is now — page points from the top
    /// left —, whether the button was released).
    var shapeDrag: ((Int, (x: Double, y: Double), (x: Double, y: Double), Bool) -> Void)?
    /// While set (the Note tool), a click on a page places something there: (page, x, y).
    var pageClick: ((Int, Double, Double) -> Void)?
    /// While set (Markup is shown), a single click is offered here first: true when it chose
    /// an annotation (the click then selects no text).
    var annotationClick: ((Int, Double, Double) -> Bool)?
    /// While set (a PDF whose form may be filled), a single click is offered here before
    /// ``annotationClick``: true when it was on a form field (which takes it).
    var fieldClick: ((Int, Double, Double) -> Bool)?
    /// The text (and with it the form fields) of every page painted is asked for (a PDF's).
    var asksForPageText = false
    /// Told when a page's text arrived (its page).
    var pageTextArrived: ((Int) -> Void)?
    /// While set (Markup's Select tool), asked where a drag begins (page, x, y): true when it
    /// begins on an annotation that moves, and the drag then goes to ``annotationDrag`` (page,
    /// where it began, where it is, whether the button was released) instead of selecting text.
    var annotationDragStart: ((Int, Double, Double) -> Bool)?
    var annotationDrag: ((Int, (x: Double, y: Double), (x: Double, y: Double), Bool) -> Void)?
    /// The drag under way moves an annotation.
    private var draggingAnnotation = false
    /// Draws over a page once it is painted (pending markup): (page, cairo, page's left and top
    /// in the view, view pixels per page point across and down, the page's painted surface).
    var drawOverlay: ((Int, OpaquePointer, Double, Double, Double, Double, OpaquePointer) -> Void)?

    private func clicked(_ presses: Int, x: Double, y: Double) {
        gtk_widget_grab_focus(area)
        if let pageClick {
            if presses == 1, let point = pagePoint(x: x, y: y) { pageClick(point.page, point.x, point.y) }
            gtk_widget_queue_draw(area)
            return
        }
        if shapeDrag != nil { return }
        if presses == 1, let fieldClick, let point = pagePoint(x: x, y: y), fieldClick(point.page, point.x, point.y) {
            anchor = nil
            gtk_widget_queue_draw(area)
            return
        }
        if presses == 1, let annotationClick, let point = pagePoint(x: x, y: y), annotationClick(point.page, point.x, point.y) {
            anchor = nil
            gtk_widget_queue_draw(area)
            return
        }
        anchor = pagePoint(x: x, y: y)
        dragPoint = nil
        selectionUnit = min(3, presses)
        if presses == 1 {
            model.clearSelection()
            gtk_widget_queue_draw(area)
        }
        if let anchor { model.wantText(pages: [anchor.page]) }
        updateSelection()
    }

    /// View pixels per page point on page `index`.
    func pageScale(_ index: Int) -> (x: Double, y: Double) {
        guard slots.indices.contains(index), let size = model.pageSize(index) else { return (1, 1) }
        return (slots[index].width / size.width, slots[index].height / size.height)
    }

    /// The selection from the anchor (and the drag), once the page's text is here.
    private func updateSelection() {
        guard let anchor, case .success(let text)? = model.pageText(anchor.page),
              let start = TextSelection.character(in: text.layout, x: anchor.x, y: anchor.y) else { return }
        switch selectionUnit {
        case 2: model.select(page: anchor.page, range: TextSelection.word(in: text.layout, at: start))
        case 3: model.select(page: anchor.page, range: TextSelection.line(in: text.layout, at: start))
        default:
            guard let point = dragPoint, let end = TextSelection.character(in: text.layout, x: point.x, y: point.y) else { return }
            model.select(page: anchor.page, range: TextSelection.between(start, end))
        }
        onSelection()
        gtk_widget_queue_draw(area)
    }

    /// Called when the selection changes (the window says what is selected).
    var onSelection: () -> Void = {}

    /// Ctrl+A: the text of the page in view (once it is here).
    private var selectAllWaiting = false
    func selectAll() {
        if model.selectAll(page: model.page) {
            onSelection()
        } else {
            selectAllWaiting = true
        }
        gtk_widget_queue_draw(area)
    }

    /// The selection over page `index`: a translucent blue over each selected character.
    private func drawSelection(page index: Int, in cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        guard let selection = model.selection, selection.page == index, selection.file == model.fileIndex,
              case .success(let text)? = model.pageText(index), let size = model.pageSize(index) else { return }
        let sx = width / size.width, sy = height / size.height
        cairo_save(cairo)
        cairo_set_source_rgba(cairo, 0.21, 0.52, 0.89, 0.35)
        for box in selection.boxes(in: text.layout) {
            cairo_rectangle(cairo, x + box.x * sx, y + box.y * sy, box.width * sx, box.height * sy)
        }
        cairo_fill(cairo)
        cairo_restore(cairo)
    }

    /// The page in view as it is painted now (premultiplied BGRA, cairo's ARGB32), for Copy
    /// Page as Image; nil until it has been rendered.
    var currentPagePixels: PagePixels? {
        let page = model.page
        guard let job = painted.order.last(where: { $0.file == model.fileIndex && $0.page == page && $0.purpose == .view }) else { return nil }
        return painted[job]?.pixels
    }

    // MARK: Layout

    /// The box a page fits at zoom 1, in device pixels.
    private var fitBox: (width: Int, height: Int) {
        (max(1, Int((viewWidth - 2 * margin) * Double(scale))), max(1, Int((viewHeight - 2 * margin) * Double(scale))))
    }

    /// Asks for the current page now, at the size it will have when the view is `width` ×
    /// `height` (the room the window will give ``root``, scrollbars included), before the
    /// window is on screen: the page renders while GTK maps and lays out the window, and the
    /// first frame paints it. When the view turns out to be another size, the first frame asks
    /// for the page at that size as usual (this one then only cost the worker a render).
    func renderAhead(rootWidth: Int, rootHeight: Int) {
        var natural: Int32 = 0, minimum: Int32 = 0
        gtk_widget_measure(verticalBar, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        let width = rootWidth - Int(natural)
        // The horizontal bar shows only when a zoomed page is wider than the view.
        if gtk_widget_get_visible(horizontalBar) != 0 {
            gtk_widget_measure(horizontalBar, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
        } else {
            natural = 0
        }
        let height = rootHeight - Int(natural)
        scale = Int(gtk_widget_get_scale_factor(area))
        let box = (max(1, Int((Double(width) - 2 * margin) * Double(scale))), max(1, Int((Double(height) - 2 * margin) * Double(scale))))
        guard case .pages = model.content, let job = model.pageJob(model.page, fitting: box) else { return }
        LookTrace.mark("page \(job.page + 1) asked for ahead \(job.width)x\(job.height) (view \(width)x\(height))")
        model.want([job])
    }

    /// Lays the pages out again (new file, zoom or window size), keeping `page` at the top.
    /// Only sizes are asked for (no page is rendered here).
    func relayout(keepingPage page: Int) {
        scale = Int(gtk_widget_get_scale_factor(area))
        slots = []
        contentWidth = 0
        guard viewWidth > 0, viewHeight > 0, case .pages(let count) = model.content else {
            configureAdjustments(height: 1)
            gtk_widget_queue_draw(area)
            return
        }
        var y = margin
        let box = fitBox
        slots.reserveCapacity(count)
        for index in 0..<count {
            let pixels = model.pagePixelSize(index, fitting: box) ?? (box.width, box.height)
            let width = Double(pixels.width) / Double(scale), height = Double(pixels.height) / Double(scale)
            // A single page (an image, a one-page document) smaller than the view sits in its
            // middle, not at the top; an image is never enlarged (pixelSize does not upscale),
            // so a small one shows at 1:1.
            if count == 1, height + 2 * margin < viewHeight { y = ((viewHeight - height) / 2).rounded(.down) }
            slots.append(Slot(y: y, width: width, height: height))
            contentWidth = max(contentWidth, width)
            y += height + gap
        }
        configureAdjustments(height: y - gap + margin)
        show(page: page)
    }

    private func configureAdjustments(height: Double) {
        let vertical = UnsafeMutablePointer<GtkAdjustment>(vertical), horizontal = UnsafeMutablePointer<GtkAdjustment>(horizontal)
        gtk_adjustment_configure(vertical, min(gtk_adjustment_get_value(vertical), max(0, height - viewHeight)),
                                 0, max(height, viewHeight), 40, max(1, viewHeight * 0.9), max(1, viewHeight))
        let width = contentWidth + 2 * margin
        gtk_adjustment_configure(horizontal, max(0, (width - viewWidth) / 2), 0, max(width, viewWidth), 40,
                                 max(1, viewWidth * 0.9), max(1, viewWidth))
        // A plain GtkScrollbar is drawn even when there is nothing to scroll: at "fit page" the
        // pages never are wider than the view, so the bar across them is hidden there. Decided by
        // the zoom, not by the widths: hiding the bar makes the view taller, which makes a page
        // fitted by its height wider, which could bring the bar back (a resize loop).
        let wanted = model.zoom > 1
        if (gtk_widget_get_visible(horizontalBar) != 0) != wanted { gtk_widget_set_visible(horizontalBar, wanted ? 1 : 0) }
    }

    /// The pages that cross the band from `top` to `top + height` (slots are in order: binary search).
    private func pages(from top: Double, height: Double) -> Range<Int> {
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle].y + slots[middle].height < top { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < slots.count, slots[end].y <= top + height { end += 1 }
        return low..<end
    }

    // MARK: Moving

    /// Scrolls so that `page` (0-based) is at the top and makes it the model's page.
    func show(page: Int) {
        guard slots.indices.contains(page) else { return }
        tracking = false
        gtk_adjustment_set_value(UnsafeMutablePointer(vertical), slots[page].y - margin)
        tracking = true
        if model.page != page { _ = model.goTo(page + 1) }
        gtk_widget_queue_draw(area)
        onChange()
    }

    func scrollBy(x: Double, y: Double) {
        let vertical = UnsafeMutablePointer<GtkAdjustment>(vertical), horizontal = UnsafeMutablePointer<GtkAdjustment>(horizontal)
        if y != 0 { gtk_adjustment_set_value(vertical, gtk_adjustment_get_value(vertical) + y) }
        if x != 0 { gtk_adjustment_set_value(horizontal, gtk_adjustment_get_value(horizontal) + x) }
    }

    /// Applies a zoom command of the model and lays out again around the current page. Pages
    /// at the old zoom stay in the cache and are drawn scaled until the new ones arrive.
    func zoom(_ command: () -> Bool) {
        let page = model.page
        if command() {
            relayout(keepingPage: page)
            onChange()
        }
    }

    /// Zoom such that the page fills the view's width (relative to fitting the whole page).
    func fitWidth() {
        guard let slot = slots.indices.contains(model.page) ? slots[model.page] : nil, slot.width > 0 else { return }
        let current = model.zoom
        let widthAtFit = slot.width / current
        let factor = (viewWidth - 2 * margin) / widthAtFit
        zoom { model.setZoom(factor) }
    }

    /// Zoom such that images show one image pixel per device pixel (100 %).
    func actualSize() {
        guard let card = model.card, let width = card.imageWidth, slots.indices.contains(0) else { return }
        let widthAtFit = slots[0].width * Double(scale) / model.zoom
        zoom { model.setZoom(Double(width) / widthAtFit) }
    }

    /// The page in view follows the scroll: the one across a line a third down the view.
    private func trackPage() {
        guard !slots.isEmpty else { return }
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(vertical))
        let line = top + viewHeight / 3
        var page = max(0, pages(from: line, height: 0).lowerBound - 1)
        while page + 1 < slots.count, slots[page + 1].y <= line { page += 1 }
        let upper = gtk_adjustment_get_upper(UnsafeMutablePointer(vertical))
        if top + viewHeight >= upper - 1 { page = max(page, pages(from: top, height: viewHeight).lowerBound) }
        if page != model.page {
            _ = model.goTo(page + 1)
            onChange()
        }
    }

    // MARK: Drawing

    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        takeUpdates()
        if !tracedFirstFrame {
            tracedFirstFrame = true
            LookTrace.mark("first frame of the page view")
        }
        cairo_set_source_rgb(cairo, 0.55, 0.55, 0.57)
        cairo_paint(cairo)
        guard !slots.isEmpty else { return }
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(vertical))
        let left = gtk_adjustment_get_value(UnsafeMutablePointer(horizontal))
        let totalWidth = max(contentWidth + 2 * margin, width)
        let box = fitBox
        let visible = pages(from: top, height: height)
        // An animated image plays at the size page 1 is shown (a new file or size is followed).
        player.follow(fitting: box)
        var wanted: [PageRenderJob] = []
        var paintedAPage = false, settledAPage = false
        var shown: Set<PageRenderJob> = []
        var textless: [Int] = []
        for index in visible {
            let slot = slots[index]
            let x = (totalWidth - slot.width) / 2 - left
            let y = slot.y - top
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_rectangle(cairo, x, y, slot.width, slot.height)
            cairo_fill(cairo)
            guard let job = model.pageJob(index, fitting: box) else { continue }
            shown.insert(job)
            if index == 0, let frame = player.surface(for: job) {
                paint(frame, in: cairo, x: x, y: y, width: slot.width, height: slot.height)
                paintedAPage = true
                continue
            }
            if let page = painted.use(job) {
                if asksForPageText, model.pageText(index) == nil { textless.append(index) }
                paint(page.surface, in: cairo, x: x, y: y, width: slot.width, height: slot.height)
                drawMatches(page: index, in: cairo, x: x, y: y, width: slot.width, height: slot.height)
                drawSelection(page: index, in: cairo, x: x, y: y, width: slot.width, height: slot.height)
                if let drawOverlay, let size = model.pageSize(index) {
                    cairo_save(cairo)
                    drawOverlay(index, cairo, x, y, slot.width / size.width, slot.height / size.height, page.surface)
                    cairo_restore(cairo)
                }
                paintedAPage = true
                continue
            }
            if let problem = failed[job] {
                drawProblem(problem, in: cairo, x: x, y: y, width: slot.width)
                settledAPage = true
                continue
            }
            wanted.append(job)
            // Until it arrives: the same page at another zoom, scaled, if one is kept.
            if let stale = painted.order.last(where: { $0.file == job.file && $0.path == job.path && $0.page == index }) {
                paint(painted[stale]!.surface, in: cairo, x: x, y: y, width: slot.width, height: slot.height)
            }
        }
        if paintedAPage && !tracedFirstPage {
            tracedFirstPage = true
            LookTrace.mark("first page painted")
            // The start-up burst (theme, widgets, document) is over: what malloc freed inside
            // its heaps goes back to the system (~0.5 MB, docs/notes/look.md).
            Signal.idle { MallocTuning.trim() }
        }
        if paintedAPage || settledAPage, let first = onFirstPage {
            onFirstPage = nil
            first()
        }
        onScreen = shown
        if !textless.isEmpty { model.wantText(pages: textless) }
        // Then the neighbours: the pages after the view (reading ahead), one before it, as long
        // as they fit in the cache beside the pages on screen (at a high zoom they do not, and
        // rendering them would only push each other out).
        if let last = visible.last, let first = visible.first {
            var bytes = shown.reduce(0) { $0 + $1.width * $1.height * 4 }
            for index in (1...ahead).map({ last + $0 }) + [first - 1] where slots.indices.contains(index) {
                guard let job = model.pageJob(index, fitting: box), painted[job] == nil, failed[job] == nil else { continue }
                bytes += job.width * job.height * 4
                guard bytes <= painted.byteLimit else { break }
                wanted.append(job)
            }
        }
        model.want(wanted)
    }

    /// The search's matches on page `index`, over the page in its slot: a yellow wash on each
    /// (multiplied, so the text stays readable), orange with an outline on the current one.
    private func drawMatches(page index: Int, in cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        let find = model.find
        guard find.isActive, !find.isText, find.file == model.fileIndex, let size = model.pageSize(index) else { return }
        let matches = find.matches(onPage: index)
        guard !matches.isEmpty else { return }
        let sx = width / size.width, sy = height / size.height
        let current = find.currentMatch
        if LookTrace.isOn, let current, current.page == index, tracedMatch != current {
            tracedMatch = current
            LookTrace.mark("match painted (page \(index + 1))")
        }
        cairo_save(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_MULTIPLY)
        for match in matches {
            let isCurrent = match == current
            for box in match.boxes {
                cairo_rectangle(cairo, x + box.x * sx - 1, y + box.y * sy - 1, box.width * sx + 2, box.height * sy + 2)
                if isCurrent { cairo_set_source_rgb(cairo, 1, 0.6, 0.1) } else { cairo_set_source_rgb(cairo, 1, 0.93, 0.3) }
                cairo_fill(cairo)
            }
        }
        cairo_restore(cairo)
    }

    /// The last match whose painting was traced (QUIRE_LOOK_TRACE).
    private var tracedMatch: FindMatch?

    /// A page's text with boxes arrived (for selection): drawn again.
    func textArrived(page: Int) {
        if selectAllWaiting, page == model.page {
            selectAllWaiting = false
            selectAll()
        }
        if anchor?.page == page { updateSelection() }
        pageTextArrived?(page)
        gtk_widget_queue_draw(area)
    }

    /// Paints a converted page into its slot (scaled when it was rendered at another zoom).
    private func paint(_ surface: OpaquePointer, in cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        let pixelWidth = Double(cairo_image_surface_get_width(surface)), pixelHeight = Double(cairo_image_surface_get_height(surface))
        cairo_save(cairo)
        cairo_rectangle(cairo, x, y, width, height)
        cairo_clip(cairo)
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, width / pixelWidth, height / pixelHeight)
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    private func drawProblem(_ text: String, in cairo: OpaquePointer, x: Double, y: Double, width: Double) {
        cairo_save(cairo)
        cairo_set_source_rgb(cairo, 0.4, 0.4, 0.4)
        cairo_select_font_face(cairo, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, 13)
        cairo_move_to(cairo, x + 16, y + 32)
        cairo_show_text(cairo, String(text.prefix(Int(max(10, width / 7)))))
        cairo_restore(cairo)
    }

    /// A page from the render thread: kept (if it is still what the view shows) and drawn.
    func received(_ job: PageRenderJob, _ result: Result<PagePixels, RenderProblem>) {
        if job.purpose == .printPreview {
            previewDelivery?(job, result)
            return
        }
        guard job.purpose == .view else { return }
        switch result {
        case .failure(let problem):
            LookTrace.mark("page \(job.page + 1) failed: \(problem.message)")
            failed[job] = problem.message
            if job.file == model.fileIndex { onPageProblem(job.page, problem.message) }
        case .success(let pixels):
            guard painted[job] == nil else { return }
            LookTrace.mark("page \(job.page + 1) rendered \(job.width)x\(job.height)")
            // Bounded: the least recently painted go first; pages on screen and the newest stay.
            painted.insert(job, pixels, keeping: onScreen)
        }
        gtk_widget_queue_draw(area)
    }

    /// Where print-preview pages go (the print sheet's strip, while it is open).
    private var previewDelivery: (@MainActor (PageRenderJob, Result<PagePixels, RenderProblem>) -> Void)?

    /// Renders `jobs` (print-preview pages) on the view's render thread and worker, after the
    /// view's own pages; each comes back to `deliver` on the main loop. An empty list drops the
    /// pages not yet rendered (a newer range, or the sheet closed).
    func wantPreview(_ jobs: [PageRenderJob], deliver: @escaping @MainActor (PageRenderJob, Result<PagePixels, RenderProblem>) -> Void) {
        previewDelivery = deliver
        model.want(jobs, for: .printPreview)
    }

    /// Forgets converted pages and shows the model's current file from its position.
    func reset() {
        player.stop()
        anchor = nil
        selectAllWaiting = false
        painted.removeAll()
        failed = [:]
        model.want([])
        gtk_adjustment_set_value(UnsafeMutablePointer(vertical), 0)
        relayout(keepingPage: model.page)
    }

    /// Stops asking for pages (the window is closing; the model stops the render thread).
    func stop() {
        player.stop()
        model.want([])
        model.want([], for: .printPreview)
    }
}
