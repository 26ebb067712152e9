import CGtk
import Quire
import QuireViewer

/// The pages of the current file in one continuous vertical scroll, drawn with cairo at the
/// screen's scale. Only the pages in view are rendered (through the model's bounded cache), and
/// the neighbours of the view are rendered ahead when the main loop is idle.
@MainActor
final class PageView {
    var model: ViewerModel
    /// The widget to pack: the drawing area with its two scrollbars.
    let root: UnsafeMutablePointer<GtkWidget>
    let area: UnsafeMutablePointer<GtkWidget>
    private let vertical: OpaquePointer  // GtkAdjustment
    private let horizontal: OpaquePointer
    /// Called when the page in view or the zoom changes.
    var onChange: () -> Void = {}

    private struct Slot { var y: Double; var width: Double; var height: Double }
    private var slots: [Slot] = []
    private var contentWidth = 0.0
    private var viewWidth = 0.0, viewHeight = 0.0
    private var scale = 1
    private var tracking = true
    private let margin = 12.0, gap = 12.0
    /// Converted pages (cairo surfaces) of what is on screen, a few at most; the model's page
    /// cache holds the rendered pixels.
    private var surfaces: [(key: String, surface: OpaquePointer)] = []
    private let surfaceLimit = 6
    private var prefetchPending = false

    init(model: ViewerModel) {
        self.model = model
        vertical = OpaquePointer(gtk_adjustment_new(0, 0, 1, 40, 400, 1))
        horizontal = OpaquePointer(gtk_adjustment_new(0, 0, 1, 40, 400, 1))
        area = gtk_drawing_area_new()
        gtk_widget_set_hexpand(area, 1)
        gtk_widget_set_vexpand(area, 1)
        gtk_widget_set_focusable(area, 1)
        Accessibility.setLabel(area, "Pages")
        let verticalBar = gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, UnsafeMutablePointer(vertical))!
        let horizontalBar = gtk_scrollbar_new(GTK_ORIENTATION_HORIZONTAL, UnsafeMutablePointer(horizontal))!
        Accessibility.setLabel(verticalBar, "Scroll pages")
        Accessibility.setLabel(horizontalBar, "Scroll across the page")
        let grid = gtk_grid_new()!
        gtk_grid_attach(cast(grid), area, 0, 0, 1, 1)
        gtk_grid_attach(cast(grid), verticalBar, 1, 0, 1, 1)
        gtk_grid_attach(cast(grid), horizontalBar, 0, 1, 1, 1)
        gtk_widget_add_css_class(grid, "view")
        root = grid

        Signal.setDrawFunction(area) { [unowned self] cairo, width, height in
            self.draw(cairo, width: Double(width), height: Double(height))
        }
        Signal.connectResize(area) { [unowned self] width, height in
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
    }

    // MARK: Layout

    /// The box a page fits at zoom 1, in device pixels.
    private var fitBox: (width: Int, height: Int) {
        (max(1, Int((viewWidth - 2 * margin) * Double(scale))), max(1, Int((viewHeight - 2 * margin) * Double(scale))))
    }

    /// Lays the pages out again (new file, zoom or window size), keeping `page` at the top.
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
        for index in 0..<count {
            let pixels = model.pagePixelSize(index, fitting: box) ?? (box.width, box.height)
            let width = Double(pixels.width) / Double(scale), height = Double(pixels.height) / Double(scale)
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

    /// Applies a zoom command of the model and lays out again around the current page.
    func zoom(_ command: () -> Bool) {
        let page = model.page
        if command() {
            surfaces.removeAll { cairo_surface_destroy($0.surface); return true }
            relayout(keepingPage: page)
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
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(vertical))
        let line = top + viewHeight / 3
        var page = slots.lastIndex { $0.y <= line } ?? 0
        let upper = gtk_adjustment_get_upper(UnsafeMutablePointer(vertical))
        if top + viewHeight >= upper - 1, !slots.isEmpty { page = max(page, slots.lastIndex { $0.y >= top } ?? page) }
        if page != model.page {
            _ = model.goTo(page + 1)
            onChange()
        }
    }

    // MARK: Drawing

    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        cairo_set_source_rgb(cairo, 0.55, 0.55, 0.57)
        cairo_paint(cairo)
        guard !slots.isEmpty else { return }
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(vertical))
        let left = gtk_adjustment_get_value(UnsafeMutablePointer(horizontal))
        let totalWidth = max(contentWidth + 2 * margin, width)
        for (index, slot) in slots.enumerated() where slot.y + slot.height >= top && slot.y <= top + height {
            let x = (totalWidth - slot.width) / 2 - left
            let y = slot.y - top
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_rectangle(cairo, x, y, slot.width, slot.height)
            cairo_fill(cairo)
            guard let surface = surface(page: index) else { continue }
            cairo_save(cairo)
            cairo_translate(cairo, x, y)
            cairo_scale(cairo, 1 / Double(scale), 1 / Double(scale))
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_paint(cairo)
            cairo_restore(cairo)
        }
        schedulePrefetch(top: top)
    }

    /// Page `index` as a cairo surface (premultiplied BGRA), converted from the model's RGBA.
    private func surface(page index: Int) -> OpaquePointer? {
        let box = fitBox
        let key = "\(model.fileIndex):\(index):\(box.width)x\(box.height):\(model.zoom)"
        if let found = surfaces.firstIndex(where: { $0.key == key }) {
            let entry = surfaces.remove(at: found)
            surfaces.append(entry)
            return entry.surface
        }
        guard let image = try? model.renderPage(index, fitting: box) else { return nil }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))!
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        image.pixels.withUnsafeBufferPointer { source in
            for row in 0..<image.height {
                let line = data + row * stride
                for column in 0..<image.width {
                    let from = (row * image.width + column) * 4
                    let alpha = UInt32(source[from + 3])
                    let red = UInt32(source[from]) * alpha / 255
                    let green = UInt32(source[from + 1]) * alpha / 255
                    let blue = UInt32(source[from + 2]) * alpha / 255
                    line.advanced(by: column * 4).withMemoryRebound(to: UInt32.self, capacity: 1) {
                        $0.pointee = alpha << 24 | red << 16 | green << 8 | blue
                    }
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        surfaces.append((key, surface))
        while surfaces.count > surfaceLimit { cairo_surface_destroy(surfaces.removeFirst().surface) }
        return surface
    }

    /// Renders the pages just above and below the view into the model's cache when idle.
    private func schedulePrefetch(top: Double) {
        guard !prefetchPending else { return }
        prefetchPending = true
        Signal.idle { [weak self] in
            guard let self else { return }
            self.prefetchPending = false
            let visible = self.slots.indices.filter { self.slots[$0].y + self.slots[$0].height >= top && self.slots[$0].y <= top + self.viewHeight }
            guard let first = visible.first, let last = visible.last else { return }
            let box = self.fitBox
            for page in [last + 1, first - 1] where self.slots.indices.contains(page) {
                _ = try? self.model.renderPage(page, fitting: box)
            }
        }
    }

    /// Forgets converted pages (the file changed).
    func reset() {
        surfaces.removeAll { cairo_surface_destroy($0.surface); return true }
        gtk_adjustment_set_value(UnsafeMutablePointer(vertical), 0)
        relayout(keepingPage: model.page)
    }
}
