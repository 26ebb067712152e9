import CGtk
import Quire
import QuireRenderService
import QuireViewer

/// The window's page sidebar (F9 or the header's Pages button): a column of small pictures of
/// the current file's pages, the current one marked, a click going to it. Drawn like the page
/// view — one drawing area with a scrollbar, slots laid out from the pages' sizes and nothing
/// made per page — so a 1000-page document costs a list of slots. Only the thumbnails in view
/// (and a few past it) are asked for, through the view's render queue after the view's own
/// pages (``PageRenderJob/Purpose/sidebar``); they are kept in a cache bounded in bytes.
@MainActor
final class PageSidebar {
    var model: ViewerModel
    let root: UnsafeMutablePointer<GtkWidget>
    let area: UnsafeMutablePointer<GtkWidget>
    private let adjustment: OpaquePointer  // GtkAdjustment
    /// Called with the 0-based page a click chose.
    var onSelect: (Int) -> Void = { _ in }

    /// Thumbnails fit this box (logical pixels); the column is a little wider.
    static let thumbnailBox = (width: 120, height: 150)
    static let columnWidth = 152
    private let gap = 8.0, labelHeight = 16.0
    private var slots: [(y: Double, width: Double, height: Double)] = []
    private var viewHeight = 0.0
    private var scale = 1

    /// Painted thumbnails, least recently used first, at most 6 MiB.
    private let painted = PaintedPages(byteLimit: 6 << 20)
    /// Thumbnails asked for beyond those in view, after them.
    private let ahead = 4

    var isShown: Bool { gtk_widget_get_visible(root) != 0 }

    /// Bytes of thumbnails held (tests, the benchmark's trace).
    var heldBytes: Int { painted.bytes }

    init(model: ViewerModel) {
        self.model = model
        adjustment = OpaquePointer(gtk_adjustment_new(0, 0, 1, 40, 400, 1))
        area = gtk_drawing_area_new()
        gtk_widget_set_size_request(area, Int32(Self.columnWidth), -1)
        gtk_widget_set_vexpand(area, 1)
        Accessibility.setLabel(area, "Page Thumbnails")
        let bar = gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, UnsafeMutablePointer(adjustment))!
        Accessibility.setLabel(bar, "Scroll thumbnails")
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(cast(box), area)
        gtk_box_append(cast(box), bar)
        gtk_widget_add_css_class(box, "sidebar")
        gtk_widget_set_visible(box, 0)
        root = box

        Signal.setDrawFunction(area) { [unowned self] cairo, width, height in
            self.draw(cairo, width: Double(width), height: Double(height))
        }
        Signal.connectResize(area) { [unowned self] _, height in
            self.viewHeight = Double(height)
            self.relayout()
        }
        Signal.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { [unowned self] in gtk_widget_queue_draw(self.area) }
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
        Signal.connectScroll(scroll) { [unowned self] _, dy in
            let adjustment = UnsafeMutablePointer<GtkAdjustment>(self.adjustment)
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + dy * 60)
            return true
        }
        gtk_widget_add_controller(area, scroll)
        let click = gtk_gesture_click_new()!
        Signal.connectPressed(UnsafeMutableRawPointer(click)) { [unowned self] _, _, y in
            let top = gtk_adjustment_get_value(UnsafeMutablePointer(self.adjustment))
            if let page = self.slots.firstIndex(where: { top + y >= $0.y - self.gap / 2 && top + y < $0.y + $0.height + self.labelHeight + self.gap / 2 }) {
                self.onSelect(page)
            }
        }
        gtk_widget_add_controller(area, click)
    }

    /// Shows or hides the column; hidden, it asks for nothing and lets its thumbnails go.
    func setShown(_ shown: Bool) {
        gtk_widget_set_visible(root, shown ? 1 : 0)
        if shown {
            relayout()
        } else {
            model.want([], for: .sidebar)
            painted.removeAll()
        }
    }

    /// The current file changed (or its pages): lay out again, forget the old thumbnails.
    func reset() {
        painted.removeAll()
        failures = [:]
        model.want([], for: .sidebar)
        gtk_adjustment_set_value(UnsafeMutablePointer(adjustment), 0)
        relayout()
    }

    private func relayout() {
        scale = Int(gtk_widget_get_scale_factor(area))
        slots = []
        guard isShown, case .pages(let count) = model.content else {
            configure(height: 1)
            gtk_widget_queue_draw(area)
            return
        }
        slots.reserveCapacity(count)
        var y = gap
        let box = (Self.thumbnailBox.width * scale, Self.thumbnailBox.height * scale)
        for index in 0..<count {
            let job = model.thumbnailJob(index, fitting: box)
            let width = Double(job?.width ?? box.0) / Double(scale), height = Double(job?.height ?? box.1) / Double(scale)
            slots.append((y, width, height))
            y += height + labelHeight + gap
        }
        configure(height: y)
        followCurrentPage()
        gtk_widget_queue_draw(area)
    }

    private func configure(height: Double) {
        let adjustment = UnsafeMutablePointer<GtkAdjustment>(adjustment)
        gtk_adjustment_configure(adjustment, min(gtk_adjustment_get_value(adjustment), max(0, height - viewHeight)), 0,
                                 max(height, viewHeight), 40, max(1, viewHeight * 0.9), max(1, viewHeight))
    }

    /// Scrolls so that the current page's thumbnail is in view (when it is not).
    func followCurrentPage() {
        guard isShown, slots.indices.contains(model.page) else { return }
        let adjustment = UnsafeMutablePointer<GtkAdjustment>(adjustment)
        let top = gtk_adjustment_get_value(adjustment)
        let slot = slots[model.page]
        if slot.y < top || slot.y + slot.height + labelHeight > top + viewHeight {
            gtk_adjustment_set_value(adjustment, max(0, slot.y - gap - viewHeight / 3))
        }
        gtk_widget_queue_draw(area)
    }

    private func draw(_ cairo: OpaquePointer, width: Double, height: Double) {
        cairo_set_source_rgb(cairo, 0.93, 0.93, 0.94)
        cairo_paint(cairo)
        guard !slots.isEmpty else { return }
        let top = gtk_adjustment_get_value(UnsafeMutablePointer(adjustment))
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle].y + slots[middle].height + labelHeight < top { low = middle + 1 } else { high = middle }
        }
        var visible = low..<low
        while visible.upperBound < slots.count, slots[visible.upperBound].y <= top + height { visible = visible.lowerBound..<(visible.upperBound + 1) }
        let box = (Self.thumbnailBox.width * scale, Self.thumbnailBox.height * scale)
        var wanted: [PageRenderJob] = []
        var shown: Set<PageRenderJob> = []
        for index in visible {
            let slot = slots[index]
            let x = (width - slot.width) / 2, y = slot.y - top
            if index == model.page {
                cairo_set_source_rgb(cairo, 0.21, 0.52, 0.89)
                cairo_rectangle(cairo, x - 4, y - 4, slot.width + 8, slot.height + 8)
                cairo_fill(cairo)
            }
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_rectangle(cairo, x, y, slot.width, slot.height)
            cairo_fill(cairo)
            if let job = model.thumbnailJob(index, fitting: box) {
                shown.insert(job)
                if let thumbnail = painted.use(job) {
                    cairo_save(cairo)
                    cairo_translate(cairo, x, y)
                    cairo_scale(cairo, slot.width / Double(job.width), slot.height / Double(job.height))
                    cairo_set_source_surface(cairo, thumbnail.surface, 0, 0)
                    cairo_paint(cairo)
                    cairo_restore(cairo)
                } else if failures[job, default: 0] < Self.attempts {
                    wanted.append(job)
                }
            }
            let label = "\(index + 1)"
            cairo_set_source_rgb(cairo, index == model.page ? 0.1 : 0.35, index == model.page ? 0.3 : 0.35, index == model.page ? 0.6 : 0.35)
            cairo_select_font_face(cairo, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                                   index == model.page ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cairo, 11)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cairo, label, &extents)
            cairo_move_to(cairo, (width - extents.x_advance) / 2, y + slot.height + labelHeight - 3)
            cairo_show_text(cairo, label)
        }
        // A few past the view, so scrolling on finds them ready.
        if let last = visible.last {
            for index in (last + 1)..<min(slots.count, last + 1 + ahead) {
                if let job = model.thumbnailJob(index, fitting: box), painted[job] == nil,
                   failures[job, default: 0] < Self.attempts { wanted.append(job) }
            }
        }
        visibleJobs = shown
        if LookTrace.isOn {
            LookTrace.mark("sidebar drawn: pages \(visible.lowerBound + 1)-\(visible.upperBound) of \(slots.count), \(shown.count) jobs, \(wanted.count) wanted")
        }
        model.want(wanted, for: .sidebar)
    }

    /// The thumbnails of the last frame: never dropped from the cache.
    private var visibleJobs: Set<PageRenderJob> = []

    /// Thumbnails that could not be made, with how many times each was asked for: one that
    /// failed (a worker stopped by its time limit on a starved machine, a crash) is asked for
    /// again when the column is next drawn, up to ``attempts`` times; then its slot stays blank
    /// and nothing asks for it again (a page that always fails would otherwise be asked for at
    /// every frame).
    private var failures: [PageRenderJob: Int] = [:]
    static let attempts = 3

    /// A thumbnail from the render thread.
    func received(_ job: PageRenderJob, _ result: Result<PagePixels, RenderProblem>) {
        guard job.file == model.fileIndex, painted[job] == nil else {
            LookTrace.mark("sidebar page \(job.page + 1) ignored (file \(job.file), now \(model.fileIndex))")
            return
        }
        guard case .success(let pixels) = result else {
            if case .failure(let problem) = result { LookTrace.mark("sidebar page \(job.page + 1) failed: \(problem.message)") }
            failures[job, default: 0] += 1
            gtk_widget_queue_draw(area)
            return
        }
        painted.insert(job, pixels, keeping: visibleJobs)
        LookTrace.mark("sidebar page \(job.page + 1) received")
        gtk_widget_queue_draw(area)
    }

}
