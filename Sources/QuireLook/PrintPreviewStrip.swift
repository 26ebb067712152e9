import CGtk
import Quire
import QuireViewer
import QuireRenderService

/// The print sheet's strip of the pages that will print: small pictures of the first
/// ``PrintSheet/previewLimit`` pages of the range, each captioned with its page number, then
/// "+N more", in grey when the job prints in black and white. Pages are rendered off the main
/// loop (the window's render thread and worker, after the view's own pages), so typing a range
/// stays responsive whatever a page costs; a newer range replaces the pages not yet rendered.
@MainActor
final class PrintPreviewStrip {
    /// Box the thumbnails are fitted to (pixels).
    static let box = (width: 84, height: 112)

    let root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
    private let heading = gtk_label_new(nil)!
    private let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
    /// Asks for pages (1-based) fitted to a box; each rendered page comes back to the callback,
    /// on the main loop. An empty list drops what is not rendered yet.
    typealias Render = @MainActor (_ pages: [Int], _ box: (width: Int, height: Int),
                                   _ deliver: @escaping @MainActor (Int, PagePixels) -> Void) -> Void
    private let render: Render
    /// Asks for sides (0-based) of a composed job fitted to a box, as ``Render`` does for pages.
    typealias RenderSides = @MainActor (_ sheet: SheetRequest, _ sides: [Int], _ box: (width: Int, height: Int),
                                        _ deliver: @escaping @MainActor (Int, PagePixels) -> Void) -> Void
    private let renderSides: RenderSides
    private var shown: (pages: [Int]?, monochrome: Bool)?
    private var shownSheet: (request: SheetRequest, sides: Int, monochrome: Bool)?
    /// The pictures waiting for their page, by page number (those of the range shown now).
    private var pictures: [Int: UnsafeMutablePointer<GtkWidget>] = [:]

    init(render: @escaping Render, renderSides: @escaping RenderSides) {
        self.render = render
        self.renderSides = renderSides
        gtk_widget_set_halign(heading, GTK_ALIGN_START)
        gtk_widget_add_css_class(heading, "heading")
        gtk_box_append(cast(root), heading)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(cast(scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_child(cast(scrolled), row)
        gtk_widget_set_size_request(scrolled, -1, Int32(Self.box.height + 28))
        gtk_box_append(cast(root), scrolled)
        // The scrolled strip takes the focus (arrows scroll it): it carries the name.
        Accessibility.setLabel(scrolled, "Pages to print")
    }

    /// Shows `pages` (1-based, in print order); nil when they are not known (the range is not
    /// valid, or the document is counted only when printed).
    func show(pages: [Int]?, monochrome: Bool) {
        if let shown, shown.pages == pages, shown.monochrome == monochrome { return }
        shown = (pages, monochrome)
        shownSheet = nil
        pictures = [:]
        while let child = gtk_widget_get_first_child(row) { gtk_box_remove(cast(row), child) }
        guard let pages else {
            render([], Self.box) { _, _ in }
            gtk_label_set_text(cast(heading), "Preview")
            Accessibility.setLabel(heading, "Preview: not available")
            gtk_widget_set_visible(root, 0)
            return
        }
        gtk_widget_set_visible(root, 1)
        setHeading((pages.count == 1 ? "Preview — 1 page" : "Preview — \(pages.count) pages") + (monochrome ? ", black and white" : ""))
        let first = pages.prefix(PrintSheet.previewLimit)
        for page in first {
            pictures[page] = addCell(name: "Page \(page)", caption: String(page), width: Self.box.width)
        }
        addMore(pages.count - first.count, of: "pages")
        render(Array(first), Self.box) { [weak self] page, pixels in
            guard let self, let picture = self.pictures.removeValue(forKey: page) else { return }
            Self.set(picture, pixels, monochrome: self.shown?.monochrome ?? false)
        }
    }

    private func setHeading(_ text: String) {
        gtk_label_set_text(cast(heading), text)
        Accessibility.setLabel(heading, text)
    }

    /// A picture `width` wide (the box's height tall) named `name`, with `caption` below it,
    /// added to the row; the picture is returned for its pixels.
    private func addCell(name: String, caption text: String, width: Int) -> UnsafeMutablePointer<GtkWidget> {
        let cell = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        let picture = gtk_picture_new()!
        gtk_widget_set_size_request(picture, Int32(width), Int32(Self.box.height))
        gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_widget_add_css_class(picture, "frame")
        Accessibility.setLabel(picture, name)
        gtk_box_append(cast(cell), picture)
        let caption = gtk_label_new(text)!
        gtk_widget_add_css_class(caption, "caption")
        Accessibility.setLabel(caption, "\(name) caption")
        gtk_box_append(cast(cell), caption)
        gtk_box_append(cast(row), cell)
        return picture
    }

    /// "+N more" after the cells, when `count` are not shown (`what`: "pages", "sides").
    private func addMore(_ count: Int, of what: String) {
        guard count > 0 else { return }
        let more = gtk_label_new("+\(count) more")!
        gtk_widget_set_valign(more, GTK_ALIGN_CENTER)
        Accessibility.setLabel(more, "+\(count) more \(what)")
        gtk_box_append(cast(row), more)
    }

    /// Shows the sides of a job Quire composes (pages per sheet, paper, booklet…): the first
    /// ``PrintSheet/previewLimit`` sides as the worker's composer draws them — the composer that
    /// draws the job — then "+N more", headed by the count ("3 sheets of A4, 6 sides").
    func show(sheet request: SheetRequest, sides: Int, summary: String, monochrome: Bool) {
        if let shownSheet, shownSheet.request == request, shownSheet.sides == sides, shownSheet.monochrome == monochrome { return }
        shownSheet = (request, sides, monochrome)
        shown = nil
        pictures = [:]
        while let child = gtk_widget_get_first_child(row) { gtk_box_remove(cast(row), child) }
        gtk_widget_set_visible(root, 1)
        setHeading("Preview — \(summary)" + (monochrome ? ", black and white" : ""))
        let first = Array(0..<min(sides, PrintSheet.previewLimit))
        for side in first {
            // Wide boxes: a landscape side is as readable as a portrait page.
            pictures[side] = addCell(name: "Side \(side + 1)", caption: "Side \(side + 1)", width: Self.box.height)
        }
        addMore(sides - first.count, of: "sides")
        render([], Self.box) { _, _ in }
        renderSides(request, first, (width: Self.box.height, height: Self.box.height)) { [weak self] side, pixels in
            guard let self, let picture = self.pictures.removeValue(forKey: side) else { return }
            Self.set(picture, pixels, monochrome: self.shownSheet?.monochrome ?? false)
        }
    }

    /// Shows a rendered page (cairo's premultiplied native ARGB, i.e. B, G, R, A bytes in
    /// memory on the little-endian machines Quire builds for), in grey for black and white.
    private static func set(_ picture: UnsafeMutablePointer<GtkWidget>, _ page: PagePixels, monochrome: Bool) {
        if monochrome {
            let words = page.base.assumingMemoryBound(to: UInt32.self)
            for index in 0..<(page.width * page.height) {
                let word = words[index]
                let red = Int(word >> 16 & 0xFF), green = Int(word >> 8 & 0xFF), blue = Int(word & 0xFF)
                let grey = UInt32((red * 54 + green * 183 + blue * 19) >> 8)
                words[index] = word & 0xFF00_0000 | grey << 16 | grey << 8 | grey
            }
        }
        let bytes = g_bytes_new(page.base, gsize(page.byteCount))
        let texture = gdk_memory_texture_new(Int32(page.width), Int32(page.height), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED,
                                             bytes, gsize(page.width * 4))
        g_bytes_unref(bytes)
        gtk_picture_set_paintable(cast(picture), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
    }
}
