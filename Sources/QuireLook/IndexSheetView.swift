import CGtk
import Quire
import QuireRenderService
import QuireViewer

/// The index sheet (Ctrl+Up, or the header's grid button, with several files): every file as a
/// tile — its first page (or its type's icon), name, kind and size — in a grid; Enter or a
/// double click opens one. Files are opened and tiles drawn by the render worker, through the
/// model (``ViewerModel/openAllForIndex()``, ``ViewerModel/indexTileJob(file:fitting:)``); a file
/// that vanished says so on its tile.
@MainActor
final class IndexSheetView {
    var model: ViewerModel
    let root: UnsafeMutablePointer<GtkWidget>
    private let grid: UnsafeMutablePointer<GtkWidget>
    private var tiles: [(child: UnsafeMutablePointer<GtkWidget>, picture: UnsafeMutablePointer<GtkWidget>,
                         icon: UnsafeMutablePointer<GtkWidget>, detail: UnsafeMutablePointer<GtkWidget>)] = []
    private var drawn: Set<Int> = []
    /// Called with the file a tile opened.
    var onOpen: (Int) -> Void = { _ in }

    static let tileBox = (width: 160, height: 200)

    init(model: ViewerModel) {
        self.model = model
        grid = gtk_flow_box_new()!
        // Several tiles can be chosen (Ctrl+click) for Share; arrows and a plain click choose one.
        gtk_flow_box_set_selection_mode(cast(grid), GTK_SELECTION_MULTIPLE)
        gtk_flow_box_set_activate_on_single_click(cast(grid), 0)
        gtk_flow_box_set_homogeneous(cast(grid), 1)
        gtk_flow_box_set_max_children_per_line(cast(grid), 12)
        gtk_flow_box_set_row_spacing(cast(grid), 12)
        gtk_flow_box_set_column_spacing(cast(grid), 12)
        gtk_widget_set_valign(grid, GTK_ALIGN_START)
        gtk_widget_set_margin_start(grid, 12)
        gtk_widget_set_margin_end(grid, 12)
        gtk_widget_set_margin_top(grid, 12)
        Accessibility.setLabel(grid, "Index Sheet")
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scroller), grid)
        root = scroller
        Signal.connectChildActivated(UnsafeMutableRawPointer(grid)) { [unowned self] index in self.onOpen(index) }
    }

    /// Whether the sheet is on screen (its files are looked up every second meanwhile: one that
    /// vanishes says so on its tile).
    private var isShown = false

    /// Builds the tiles (once per model) and asks for what they need.
    func show() {
        if tiles.count != model.fileCount { build() }
        isShown = true
        model.openAllForIndex()
        refresh()
        watch()
        if let child = gtk_flow_box_get_child_at_index(cast(grid), Int32(model.fileIndex)) {
            gtk_flow_box_unselect_all(cast(grid))
            gtk_flow_box_select_child(cast(grid), child)
            // Once the grid is mapped (it has just been made the stack's visible child).
            Signal.idle { [weak self] in
                guard let self, self.isShown else { return }
                gtk_widget_grab_focus(widget(child))
            }
        }
    }

    /// The selected tile's file (the current file's until another is chosen).
    var selected: Int {
        var index = model.fileIndex
        if let list = gtk_flow_box_get_selected_children(cast(grid)) {
            if let child = list.pointee.data {
                index = Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self)))
            }
            g_list_free(list)
        }
        return index
    }

    /// Every selected tile's file, in the grid's order (the current file's when none is).
    var selectedFiles: [Int] {
        var files: [Int] = []
        if let list = gtk_flow_box_get_selected_children(cast(grid)) {
            var node: UnsafeMutablePointer<GList>? = list
            while let current = node {
                if let child = current.pointee.data {
                    files.append(Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self))))
                }
                node = current.pointee.next
            }
            g_list_free(list)
        }
        return files.isEmpty ? [model.fileIndex] : files.sorted()
    }

    /// Arrow keys: the selection moves by `step` tiles (a row is as many tiles as fit across).
    func move(by step: Int) {
        select(max(0, min(tiles.count - 1, selected + step)))
    }

    /// Tiles in a row now.
    var columns: Int {
        max(1, Int(gtk_widget_get_width(grid)) / (Self.tileBox.width + 12 + 12))
    }

    func select(_ index: Int) {
        guard let child = gtk_flow_box_get_child_at_index(cast(grid), Int32(index)) else { return }
        gtk_flow_box_unselect_all(cast(grid))
        gtk_flow_box_select_child(cast(grid), child)
        gtk_widget_grab_focus(widget(child))
    }

    /// Stops asking for tiles.
    func hide() {
        isShown = false
        model.want([], for: .indexSheet)
    }

    private func watch() {
        Signal.timeout(milliseconds: 1000) { [weak self] in
            guard let self, self.isShown else { return }
            self.model.openAllForIndex()
            self.refresh()
            self.watch()
        }
    }

    private func build() {
        while let child = gtk_widget_get_first_child(grid) { gtk_flow_box_remove(cast(grid), child) }
        tiles = []
        drawn = []
        for entry in model.indexEntries {
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
            let frame = gtk_overlay_new()!
            gtk_widget_set_size_request(frame, Int32(Self.tileBox.width), Int32(Self.tileBox.height))
            let icon = gtk_image_new_from_icon_name("text-x-generic")!
            gtk_image_set_pixel_size(cast(icon), 64)
            gtk_overlay_set_child(cast(frame), icon)
            let picture = gtk_picture_new()!
            gtk_picture_set_can_shrink(cast(picture), 1)
            gtk_widget_set_visible(picture, 0)
            gtk_overlay_add_overlay(cast(frame), picture)
            gtk_box_append(cast(box), frame)
            let name = gtk_label_new(entry.name)!
            gtk_label_set_ellipsize(cast(name), PANGO_ELLIPSIZE_MIDDLE)
            gtk_label_set_max_width_chars(cast(name), 20)
            gtk_box_append(cast(box), name)
            let detail = gtk_label_new(nil)!
            gtk_widget_add_css_class(detail, "dim-label")
            gtk_label_set_ellipsize(cast(detail), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(cast(detail), 24)
            gtk_box_append(cast(box), detail)
            gtk_flow_box_append(cast(grid), box)
            let child = gtk_widget_get_parent(box)!
            tiles.append((child, picture, icon, detail))
        }
    }

    /// Labels, icons and the tiles still wanted, from the model's entries.
    func refresh() {
        guard tiles.count == model.fileCount else { return }
        var wanted: [PageRenderJob] = []
        let scale = Int(gtk_widget_get_scale_factor(grid))
        for entry in model.indexEntries {
            let tile = tiles[entry.file]
            gtk_label_set_text(cast(tile.detail), entry.detail)
            Accessibility.setLabel(tile.child, "\(entry.name), \(entry.detail)")
            if let card = entry.card { TypeIcon.show(tile.icon, mimeType: card.mimeType, fallback: card.iconName) }
            if entry.problem != nil {
                gtk_image_set_from_icon_name(cast(tile.icon), "dialog-warning-symbolic")
                gtk_widget_set_visible(tile.picture, 0)
                gtk_widget_set_visible(tile.icon, 1)
            }
            if entry.hasPages, !drawn.contains(entry.file),
               let job = model.indexTileJob(file: entry.file, fitting: (Self.tileBox.width * scale, Self.tileBox.height * scale)) {
                wanted.append(job)
            }
        }
        model.want(wanted, for: .indexSheet)
    }

    /// A tile's picture from the render thread (or its problem: the file may have gone).
    func received(_ job: PageRenderJob, _ result: Result<PagePixels, RenderProblem>) {
        guard tiles.indices.contains(job.file) else { return }
        drawn.insert(job.file)
        switch result {
        case .success(let pixels):
            let bytes = g_bytes_new(pixels.base, gsize(pixels.byteCount))
            defer { g_bytes_unref(bytes) }
            guard let texture = gdk_memory_texture_new(Int32(pixels.width), Int32(pixels.height), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED,
                                                       bytes, gsize(pixels.width * 4)) else { return }
            gtk_picture_set_paintable(cast(tiles[job.file].picture), texture)
            g_object_unref(UnsafeMutableRawPointer(texture))
            gtk_widget_set_visible(tiles[job.file].picture, 1)
            gtk_widget_set_visible(tiles[job.file].icon, 0)
        case .failure:
            model.noteVanished(file: job.file)
        }
        refresh()
    }
}
