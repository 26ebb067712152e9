import CGtk
import Quire
import QuireViewer

/// The print sheet's strip of the pages that will print: small pictures of the first
/// ``PrintSheet/previewLimit`` pages of the range, each captioned with its page number, then
/// "+N more", in grey when the job prints in black and white. Pages are drawn one per
/// main-loop turn, so typing a range stays responsive; a newer range replaces the pages still
/// being drawn.
@MainActor
final class PrintPreviewStrip {
    /// Box the thumbnails are fitted to (pixels).
    static let box = (width: 84, height: 112)

    let root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
    private let heading = gtk_label_new(nil)!
    private let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
    private let render: @MainActor (Int, (width: Int, height: Int)) -> RenderedImage?
    private var shown: (pages: [Int]?, monochrome: Bool)?
    /// Bumped for each new range: pages queued for an older one are dropped.
    private var generation = 0

    init(render: @escaping @MainActor (Int, (width: Int, height: Int)) -> RenderedImage?) {
        self.render = render
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
        generation += 1
        while let child = gtk_widget_get_first_child(row) { gtk_box_remove(cast(row), child) }
        guard let pages else {
            gtk_label_set_text(cast(heading), "Preview")
            Accessibility.setLabel(heading, "Preview: not available")
            gtk_widget_set_visible(root, 0)
            return
        }
        gtk_widget_set_visible(root, 1)
        let text = (pages.count == 1 ? "Preview — 1 page" : "Preview — \(pages.count) pages") + (monochrome ? ", black and white" : "")
        gtk_label_set_text(cast(heading), text)
        Accessibility.setLabel(heading, text)
        let first = pages.prefix(PrintSheet.previewLimit)
        var placeholders: [(page: Int, picture: UnsafeMutablePointer<GtkWidget>)] = []
        for page in first {
            let cell = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
            let picture = gtk_picture_new()!
            gtk_widget_set_size_request(picture, Int32(Self.box.width), Int32(Self.box.height))
            gtk_picture_set_content_fit(cast(picture), GTK_CONTENT_FIT_CONTAIN)
            gtk_widget_add_css_class(picture, "frame")
            Accessibility.setLabel(picture, "Page \(page)")
            gtk_box_append(cast(cell), picture)
            let caption = gtk_label_new(String(page))!
            gtk_widget_add_css_class(caption, "caption")
            Accessibility.setLabel(caption, "Page \(page) caption")
            gtk_box_append(cast(cell), caption)
            gtk_box_append(cast(row), cell)
            placeholders.append((page, picture))
        }
        if pages.count > first.count {
            let more = gtk_label_new("+\(pages.count - first.count) more")!
            gtk_widget_set_valign(more, GTK_ALIGN_CENTER)
            Accessibility.setLabel(more, "+\(pages.count - first.count) more pages")
            gtk_box_append(cast(row), more)
        }
        drawNext(placeholders[...], monochrome: monochrome, generation: generation)
    }

    /// Draws the first placeholder's page, then the rest on later main-loop turns.
    private func drawNext(_ queue: ArraySlice<(page: Int, picture: UnsafeMutablePointer<GtkWidget>)>,
                          monochrome: Bool, generation: Int) {
        guard let next = queue.first else { return }
        Signal.idle { [weak self] in
            guard let self, self.generation == generation else { return }
            if let image = self.render(next.page, Self.box) { Self.set(next.picture, image, monochrome: monochrome) }
            self.drawNext(queue.dropFirst(), monochrome: monochrome, generation: generation)
        }
    }

    private static func set(_ picture: UnsafeMutablePointer<GtkWidget>, _ image: RenderedImage, monochrome: Bool) {
        var pixels = image.pixels
        if monochrome {
            var offset = 0
            while offset + 3 < pixels.count {
                let grey = (Int(pixels[offset]) * 54 + Int(pixels[offset + 1]) * 183 + Int(pixels[offset + 2]) * 19) >> 8
                pixels[offset] = UInt8(grey); pixels[offset + 1] = UInt8(grey); pixels[offset + 2] = UInt8(grey)
                offset += 4
            }
        }
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let texture = gdk_memory_texture_new(Int32(image.width), Int32(image.height), GDK_MEMORY_R8G8B8A8,
                                             bytes, gsize(image.width * 4))
        g_bytes_unref(bytes)
        gtk_picture_set_paintable(cast(picture), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
    }
}
