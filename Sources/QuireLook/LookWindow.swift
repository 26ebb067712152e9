import CAdwaita
import CGtk
import Quire
import QuireRenderService
import QuireViewer
import QuireGIO

/// The Quick Look window: the file's card in the header bar with its actions, the preview
/// (pages, text or a message), and a bar with the page indicator, a jump-to-page entry and zoom.
/// A front-end only: every command goes to the ``ViewerModel``.
@MainActor
final class LookWindow {
    /// The window the render thread's answers go to (``deliverUpdates()``).
    static weak var active: LookWindow?

    /// What the model's render thread calls when answers are waiting (any thread): they are
    /// taken on the main loop.
    nonisolated static func wake() {
        Signal.post { LookWindow.active?.takeUpdates() }
    }

    private(set) var model: ViewerModel
    let window: UnsafeMutablePointer<GtkWidget>
    private let pages: PageView
    private let sidebar: PageSidebar
    /// A book's contents beside its text (the same button and key as the page thumbnails).
    private let contentsSidebar = ContentsSidebar()
    private let indexSheet: IndexSheetView
    private var printSheet: PrintSheetView?
    /// Markup: the header's toggle and the tool bar over a PDF's pages.
    /// Markup's tool bar and its header toggle, built once the first page is on screen (with
    /// the deferred actions) or when first needed: the first frame does not wait for it.
    private var markupBar: MarkupBar?
    /// Set when the window closes; the main loop ends.
    private(set) var isClosed = false
    /// Called once when the window closes (the previewer service keeps running).
    var onClose: () -> Void = {}
    /// Sees each key first (not Ctrl combinations); true when it took the key.
    var keyFilter: (Int32) -> Bool = { _ in false }

    // Header
    private let icon = gtk_image_new()!
    private let titleLabel = gtk_label_new(nil)!
    private let subtitleLabel = gtk_label_new(nil)!
    private let cardBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    private let printButton = Accessibility.iconButton("printer-symbolic", "Print")
    /// Share: mail, devices, copy, copy path, open with (``ShareMenu``).
    private var shareMenu: ShareMenu!
    private let openWithButton = Accessibility.textButton("Open")
    private let copyButton = Accessibility.iconButton("edit-copy-symbolic", "Copy")
    private let folderButton = Accessibility.iconButton("folder-open-symbolic", "Show in Folder")
    private let playButton = Accessibility.iconButton("media-playback-start-symbolic", "Play")
    /// A camera RAW photo: its sensor data developed (on) or the camera's preview (off).
    private let developButton = gtk_toggle_button_new_with_label("Develop")!
    private let entriesButton = Accessibility.iconButton("view-list-symbolic", "Open a File from the Archive")
    private let previousFileButton = Accessibility.iconButton("go-previous-symbolic", "Previous File")
    private let nextFileButton = Accessibility.iconButton("go-next-symbolic", "Next File")
    private let sidebarButton = gtk_toggle_button_new()!
    private let indexButton = gtk_toggle_button_new()!
    private let fileLabel = gtk_label_new(nil)!

    // Find: the search bar above the preview (Ctrl+F)
    private let searchBar = gtk_search_bar_new()!
    private let searchEntry = gtk_search_entry_new()!
    private let matchLabel = gtk_label_new(nil)!
    private let previousMatchButton = Accessibility.iconButton("go-up-symbolic", "Previous Match")
    private let nextMatchButton = Accessibility.iconButton("go-down-symbolic", "Next Match")

    // Body
    private let stack = gtk_stack_new()!
    /// The text view (GtkSourceView), made when a text file is first shown: building it and
    /// initialising GtkSourceView costs ~30 M instructions that a PDF's window never needs.
    private var textPreview: TextPreview?
    private var text: TextPreview {
        if let textPreview { return textPreview }
        let made = TextPreview()
        gtk_stack_add_named(cast(stack), made.root, "text")
        textPreview = made
        return made
    }
    /// A delimited table (CSV, TSV) as a column view, made when one is first shown.
    private var tableView: TableColumnsView?
    /// An SQLite database: its tables and the chosen one's rows, made when one is first shown.
    private var databaseBrowser: DatabaseBrowser?
    /// A JSON document as a tree, made when one is first shown.
    private var jsonView: JSONTreeView?
    /// Markdown and notebooks rendered, made when one is first shown.
    private var markdownPreview: MarkdownPreview?
    /// An archive's files as a list to open one from, made when first asked for.
    private var entriesView: ArchiveEntriesView?
    /// Video and audio playback, made when a file is first played.
    private var mediaPlayer: MediaPlayer?
    /// Why the file cannot be shown (a GNOME status page), with the password field when one helps.
    private let problemPage = ProblemPage()
    private var passwordEntry: UnsafeMutablePointer<GtkWidget> { problemPage.passwordEntry }
    /// Short-lived messages ("Copied …") as libadwaita toasts over the preview.
    private let toastOverlay = adw_toast_overlay_new()!

    // Bottom bar
    private let pageBar = gtk_action_bar_new()!
    private let previousPageButton = Accessibility.iconButton("go-up-symbolic", "Previous Page")
    private let nextPageButton = Accessibility.iconButton("go-down-symbolic", "Next Page")
    private let positionLabel = gtk_label_new(nil)!
    private let jumpEntry = gtk_entry_new()!
    private let zoomOutButton = Accessibility.iconButton("zoom-out-symbolic", "Zoom Out")
    private let zoomLabel = gtk_label_new(nil)!
    private let zoomInButton = Accessibility.iconButton("zoom-in-symbolic", "Zoom In")
    private let fitPageButton = Accessibility.iconButton("zoom-fit-best-symbolic", "Fit Page")
    private let fitWidthButton = Accessibility.iconButton("view-paged-symbolic", "Fit Width")
    private let actualSizeButton = Accessibility.iconButton("zoom-original-symbolic", "Actual Size")
    private let statusLabel = gtk_label_new(nil)!

    /// The body box the playback controls go into (above the page bar), once made.
    private var mediaControlsSlot: UnsafeMutablePointer<GtkWidget>?
    /// The body's child the controls go after (the sidebar and the preview).
    private var mediaControlsAnchor: UnsafeMutablePointer<GtkWidget>?
    private var defaultApplication: OpaquePointer?  // GAppInfo
    /// Print and Open With are not looked up yet (``init(model:deferActions:)``).
    private var actionsPending: Bool

    /// - Parameter deferActions: look Print (libcups: printers, the document's printability)
    ///   and Open With (GIO's default-application scan) up only after the first page is on
    ///   screen, not before the window shows; until then neither button is there (the Print
    ///   button only ever appears once printing is known to work).
    init(model: ViewerModel, deferActions: Bool = false) {
        self.model = model
        actionsPending = deferActions
        ColorScheme.followDesktop()
        window = gtk_window_new()!
        gtk_window_set_default_size(cast(window), Int32(Self.defaultSize.width), Int32(Self.defaultSize.height))
        pages = PageView(model: model)
        sidebar = PageSidebar(model: model)
        indexSheet = IndexSheetView(model: model)
        buildHeader()
        buildBody()
        connect()
        Self.active = self
        // Answers that came while GTK started: a file opened is shown by the reload, then pages
        // go to the view (after it: the reload starts the view afresh, which would drop a page
        // rendered before the window existed, such as a small image's page 1).
        let early = model.update()
        reload()
        for update in early {
            if case .page(let job, let result) = update, job.purpose == .view || job.purpose == .printPreview { pages.received(job, result) }
        }
        renderAhead()
    }

    /// Takes the render thread's answers (main loop): a file opened shows its card and
    /// content, pages go to the page view.
    func takeUpdates() {
        guard !isClosed else { return }
        for update in model.update() { handle(update) }
    }

    /// What a frame of the page view takes before it draws: the view's own pages are handled at
    /// once (painted in that frame); everything else (a page's problem, which changes the status
    /// line, too) waits for the main loop's next turn. GTK
    /// loses a redraw asked for during a frame's drawing by another widget (the sidebar, the
    /// index sheet, the print sheet's preview): its request is marked but no frame is scheduled,
    /// and every later request of that widget is then ignored until something else draws the
    /// window.
    private func takeUpdatesInFrame() {
        guard !isClosed else { return }
        for update in model.update() {
            if case .page(let job, .success) = update, job.purpose == .view {
                handle(update)
            } else {
                Signal.idle { [weak self] in
                    guard let self, !self.isClosed else { return }
                    self.handle(update)
                }
            }
        }
    }

    /// File `file` opened in the worker (or failed to): shown, if it is still the current one.
    private func opened(file: Int) {
        if isIndexShown { indexSheet.refresh() }
        guard !isClosed, file == model.fileIndex, !isIndexShown else { return }
        LookTrace.mark("file opened (worker)")
        reload()
        renderAhead()
        if printOnlyWaiting {
            printOnlyWaiting = false
            showPrintSheetOnly()
        }
    }

    private func handle(_ update: ViewerModel.Update) {
        switch update {
        case .opened(let file):
            // Not here: updates are also taken while the page view draws, where the window's
            // widgets must not change; on the main loop's next turn instead.
            Signal.idle { [weak self] in self?.opened(file: file) }
        case .page(let job, let result) where job.purpose == .sidebar:
            sidebar.received(job, result)
        case .page(let job, let result) where job.purpose == .indexSheet:
            indexSheet.received(job, result)
        case .page(let job, let result):
            pages.received(job, result)
        case .frame(let job, let result):
            pages.player.received(job, result)
        case .found(let moved):
            findUpdated(moved: moved)
        case .pageText(let file, let page):
            if file == model.fileIndex { pages.textArrived(page: page) }
        case .finished(let file):
            // The pages shown stay; the card (title, author) and "laying out…" change.
            Signal.idle { [weak self] in
                guard let self, !self.isClosed, file == self.model.fileIndex else { return }
                self.showCard()
                self.updateIndicators()
            }
        }
    }

    /// The window's size, set once when it is made and kept from file to file: 900×860, or less
    /// on a screen too small for that (40 px left for the panels and the window's frame).
    private static let defaultSize: (width: Int, height: Int) = {
        var size = (width: 900, height: 860)
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display),
              g_list_model_get_n_items(monitors) > 0, let item = g_list_model_get_item(monitors, 0) else { return size }
        defer { g_object_unref(item) }
        var area = GdkRectangle()
        gdk_monitor_get_geometry(OpaquePointer(item), &area)
        if area.width > 0 && area.height > 0 {
            size = (min(size.width, max(360, Int(area.width) - 40)), min(size.height, max(300, Int(area.height) - 40)))
        }
        return size
    }()

    /// Starts the current page's render at the size the page view will get in a window of the
    /// default size (the header and bottom bars measured now), before the window is presented.
    private func renderAhead() {
        guard case .pages = model.content else { return }
        // Realized, the window has its final style (a window manager without compositing
        // gets the "solid-csd" frame, whose padding and border take room from the content).
        gtk_widget_realize(window)
        let style = gtk_widget_get_style_context(window)
        var padding = GtkBorder(), border = GtkBorder()
        gtk_style_context_get_padding(style, &padding)
        gtk_style_context_get_border(style, &border)
        let frameWidth = Int(padding.left) + Int(padding.right) + Int(border.left) + Int(border.right)
        let frameHeight = Int(padding.top) + Int(padding.bottom) + Int(border.top) + Int(border.bottom)
        var minimum: Int32 = 0, header: Int32 = 0, bar: Int32 = 0
        if let titlebar = gtk_window_get_titlebar(cast(window)) {
            gtk_widget_measure(titlebar, GTK_ORIENTATION_VERTICAL, Int32(Self.defaultSize.width), &minimum, &header, nil, nil)
        }
        gtk_widget_measure(pageBar, GTK_ORIENTATION_VERTICAL, Int32(Self.defaultSize.width), &minimum, &bar, nil, nil)
        pages.renderAhead(rootWidth: Self.defaultSize.width - frameWidth,
                          rootHeight: Self.defaultSize.height - frameHeight - Int(header) - Int(bar))
    }

    func present() {
        gtk_window_present(cast(window))
        switch model.content {
        case .pages, .opening: gtk_widget_grab_focus(pages.area)
        case .text: gtk_widget_grab_focus(dataFocus ?? text.view)
        case .problem: if model.problem?.needsPassword == true { gtk_widget_grab_focus(passwordEntry) }
        }
        guard actionsPending else { return }
        // The actions come once the preview is on screen: the first page painted (or failed),
        // or the first frame for text and messages; at the latest after 1.5 s (a slow page).
        pages.onFirstPage = { [weak self] in Signal.idle { self?.loadPendingActions() } }
        paintedSincePending = false
        if !afterPaintConnected, let clock = gtk_widget_get_frame_clock(window) {
            afterPaintConnected = true
            Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") { [weak self] in
                guard let self, self.actionsPending, !self.paintedSincePending else { return }
                if case .pages = self.model.content { return }
                self.paintedSincePending = true
                Signal.idle { [weak self] in self?.loadPendingActions() }
            }
        }
        Signal.timeout(milliseconds: 1500) { [weak self] in self?.loadPendingActions() }
    }

    /// The frame clock's after-paint handler is connected (once per window).
    private var afterPaintConnected = false
    /// A frame was painted since the actions became pending (text and messages wait for one).
    private var paintedSincePending = false

    /// Looks Print and Open With up now, if they were deferred and are not known yet.
    func loadPendingActions() {
        guard actionsPending, !isClosed else { return }
        actionsPending = false
        reloadActions()
        LookTrace.mark("actions known (print, open with)")
    }

    /// Markup's bar, built now if it was not yet: its toggle goes into the header after the
    /// Index Sheet button, the bar under the find bar (where they would have been built).
    @discardableResult
    private func markupTools() -> MarkupBar {
        if let markupBar { return markupBar }
        let bar = MarkupBar(window: window, pages: pages, model: { [unowned self] in self.model }, status: { [unowned self] text in self.status(text) },
                            reopen: { [unowned self] in self.reopenFile() })
        markupBar = bar
        gtk_box_insert_child_after(cast(gtk_widget_get_parent(indexButton)), bar.toggle, indexButton)
        gtk_box_insert_child_after(cast(gtk_widget_get_parent(searchBar)), bar.root, searchBar)
        bar.refresh()
        LookTrace.mark("markup bar built")
        return bar
    }

    // MARK: Building

    private func buildHeader() {
        let header = gtk_header_bar_new()!
        gtk_image_set_pixel_size(cast(icon), 32)
        Accessibility.setLabel(icon, "File type")
        gtk_widget_add_css_class(titleLabel, "title")
        gtk_label_set_ellipsize(cast(titleLabel), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_add_css_class(subtitleLabel, "subtitle")
        // Long titles and facts are cut, not allowed to widen the window (its size stays the
        // same from file to file).
        gtk_label_set_ellipsize(cast(subtitleLabel), PANGO_ELLIPSIZE_END)
        gtk_box_append(cast(cardBox), titleLabel)
        gtk_box_append(cast(cardBox), subtitleLabel)
        gtk_widget_set_valign(cardBox, GTK_ALIGN_CENTER)
        gtk_header_bar_set_title_widget(cast(header), cardBox)
        gtk_header_bar_pack_start(cast(header), icon)
        gtk_button_set_icon_name(cast(sidebarButton), "sidebar-show-symbolic")
        gtk_widget_set_tooltip_text(sidebarButton, "Page Thumbnails (F9)")
        Accessibility.setLabel(sidebarButton, "Page Thumbnails")
        gtk_header_bar_pack_start(cast(header), sidebarButton)
        gtk_button_set_icon_name(cast(indexButton), "view-grid-symbolic")
        gtk_widget_set_tooltip_text(indexButton, "Index Sheet (Ctrl+Up)")
        Accessibility.setLabel(indexButton, "Index Sheet")
        gtk_header_bar_pack_start(cast(header), indexButton)
        gtk_header_bar_pack_start(cast(header), previousFileButton)
        Accessibility.setLabel(fileLabel, "File position")
        gtk_header_bar_pack_start(cast(header), fileLabel)
        gtk_header_bar_pack_start(cast(header), nextFileButton)
        gtk_header_bar_pack_end(cast(header), printButton)
        shareMenu = ShareMenu(window: window)
        gtk_header_bar_pack_end(cast(header), shareMenu.button)
        makeIconDragSource()
        gtk_header_bar_pack_end(cast(header), playButton)
        gtk_widget_set_tooltip_text(developButton, "Develop the sensor data at full size, every pixel (Ctrl+Shift+D); off: the camera's preview")
        Accessibility.setLabel(developButton, "Develop")
        gtk_widget_set_visible(developButton, 0)
        gtk_header_bar_pack_end(cast(header), developButton)
        gtk_header_bar_pack_end(cast(header), entriesButton)
        gtk_header_bar_pack_end(cast(header), folderButton)
        gtk_header_bar_pack_end(cast(header), copyButton)
        gtk_header_bar_pack_end(cast(header), openWithButton)
        gtk_window_set_titlebar(cast(window), header)
    }

    private func buildBody() {
        let body = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_stack_add_named(cast(stack), pages.root, "pages")
        gtk_stack_add_named(cast(stack), indexSheet.root, "index")

        let findRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        Accessibility.setLabel(searchEntry, "Find in Document")
        gtk_widget_set_size_request(searchEntry, 280, -1)
        gtk_box_append(cast(findRow), searchEntry)
        gtk_box_append(cast(findRow), previousMatchButton)
        gtk_box_append(cast(findRow), nextMatchButton)
        Accessibility.setLabel(matchLabel, "Matches")
        gtk_label_set_ellipsize(cast(matchLabel), PANGO_ELLIPSIZE_END)
        gtk_box_append(cast(findRow), matchLabel)
        gtk_search_bar_set_child(cast(searchBar), findRow)
        gtk_search_bar_connect_entry(cast(searchBar), cast(searchEntry))
        gtk_search_bar_set_show_close_button(cast(searchBar), 1)
        Accessibility.setLabel(searchBar, "Find")
        gtk_box_append(cast(body), searchBar)

        gtk_stack_add_named(cast(stack), problemPage.root, "problem")
        gtk_widget_set_vexpand(stack, 1)
        gtk_widget_set_hexpand(stack, 1)
        let middle = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(cast(middle), sidebar.root)
        gtk_box_append(cast(middle), contentsSidebar.root)
        gtk_box_append(cast(middle), stack)
        gtk_widget_set_vexpand(middle, 1)
        gtk_box_append(cast(body), middle)
        mediaControlsSlot = body
        mediaControlsAnchor = middle

        gtk_action_bar_pack_start(cast(pageBar), previousPageButton)
        gtk_action_bar_pack_start(cast(pageBar), nextPageButton)
        Accessibility.setLabel(positionLabel, "Page position")
        gtk_action_bar_pack_start(cast(pageBar), positionLabel)
        gtk_editable_set_width_chars(OpaquePointer(jumpEntry), 5)
        gtk_entry_set_placeholder_text(cast(jumpEntry), "Page")
        Accessibility.setLabel(jumpEntry, "Go to Page")
        gtk_widget_set_tooltip_text(jumpEntry, "Go to page (number, then Enter)")
        gtk_action_bar_pack_start(cast(pageBar), jumpEntry)
        gtk_label_set_ellipsize(cast(statusLabel), PANGO_ELLIPSIZE_END)
        Accessibility.setLabel(statusLabel, "Status")
        gtk_action_bar_set_center_widget(cast(pageBar), statusLabel)
        gtk_action_bar_pack_end(cast(pageBar), fitWidthButton)
        gtk_action_bar_pack_end(cast(pageBar), fitPageButton)
        gtk_action_bar_pack_end(cast(pageBar), actualSizeButton)
        gtk_action_bar_pack_end(cast(pageBar), zoomInButton)
        Accessibility.setLabel(zoomLabel, "Zoom")
        gtk_action_bar_pack_end(cast(pageBar), zoomLabel)
        gtk_action_bar_pack_end(cast(pageBar), zoomOutButton)
        Accessibility.setLabel(pageBar, "Page Bar")
        gtk_box_append(cast(body), pageBar)
        adw_toast_overlay_set_child(OpaquePointer(toastOverlay), body)
        gtk_window_set_child(cast(window), toastOverlay)
    }

    private func connect() {
        pages.onChange = { [unowned self] in
            self.updateIndicators()
            self.sidebar.followCurrentPage()
        }
        sidebar.onSelect = { [unowned self] page in
            self.pages.show(page: page)
            gtk_widget_grab_focus(self.pages.area)
        }
        Signal.connect(indexButton, "toggled") { [unowned self] in
            self.setIndexSheet(gtk_toggle_button_get_active(cast(self.indexButton)) != 0)
        }
        indexSheet.onOpen = { [unowned self] file in
            gtk_toggle_button_set_active(cast(self.indexButton), 0)
            if self.model.selectFile(file) || file == self.model.fileIndex { self.reload() }
        }
        Signal.connect(developButton, "toggled") { [unowned self] in
            // Set from the model in reload() too: only a person's toggle differs from it.
            if (gtk_toggle_button_get_active(cast(self.developButton)) != 0) != self.model.isDeveloped { self.toggleDevelop() }
        }
        Signal.connect(sidebarButton, "toggled") { [unowned self] in self.applySidebar() }
        contentsSidebar.onChoose = { [unowned self] index in self.goToContents(index) }
        pages.onSelection = { [unowned self] in
            if case .success(let text) = self.model.selectedText {
                self.status("\(text.count) character\(text.count == 1 ? "" : "s") selected · Ctrl+C copies")
            }
        }
        pages.takeUpdates = { [unowned self] in self.takeUpdatesInFrame() }
        // A page the worker could not draw (it crashed, hung, was killed): said in the status
        // line as well as on the page.
        pages.onPageProblem = { [unowned self] page, message in self.status("Page \(page + 1) cannot be shown: \(message)") }
        // An animation's state in the status line (on the loop's next turn: it changes while
        // the page view draws).
        pages.player.onChange = { [unowned self] in
            Signal.idle { [weak self] in self?.showAnimationStatus() }
        }
        Signal.connect(previousPageButton, "clicked") { [unowned self] in self.movePage(by: -1) }
        Signal.connect(nextPageButton, "clicked") { [unowned self] in self.movePage(by: 1) }
        Signal.connect(previousFileButton, "clicked") { [unowned self] in self.moveFile(by: -1) }
        Signal.connect(nextFileButton, "clicked") { [unowned self] in self.moveFile(by: 1) }
        Signal.connect(zoomInButton, "clicked") { [unowned self] in self.pages.zoom { self.model.zoomIn() } }
        Signal.connect(zoomOutButton, "clicked") { [unowned self] in self.pages.zoom { self.model.zoomOut() } }
        Signal.connect(fitPageButton, "clicked") { [unowned self] in self.pages.zoom { self.model.zoomToFit() } }
        Signal.connect(fitWidthButton, "clicked") { [unowned self] in self.pages.fitWidth() }
        Signal.connect(actualSizeButton, "clicked") { [unowned self] in self.pages.actualSize() }
        Signal.connect(jumpEntry, "activate") { [unowned self] in self.jump() }
        Signal.connect(passwordEntry, "activate") { [unowned self] in self.unlock() }
        Signal.connect(problemPage.unlockButton, "clicked") { [unowned self] in self.unlock() }
        Signal.connect(openWithButton, "clicked") { [unowned self] in self.openWith() }
        Signal.connect(copyButton, "clicked") { [unowned self] in self.copy() }
        shareMenu.files = { [unowned self] in self.sharedPaths }
        shareMenu.status = { [unowned self] text in self.status(text) }
        shareMenu.copy = { [unowned self] in self.copy() }
        shareMenu.copyPath = { [unowned self] in self.copyPath() }
        shareMenu.openWith = { [unowned self] in self.openWith() }
        shareMenu.openWithName = { [unowned self] in
            self.defaultApplication.map { String(cString: g_app_info_get_display_name($0)) }
        }
        Signal.connect(folderButton, "clicked") { [unowned self] in self.showInFolder() }
        Signal.connect(printButton, "clicked") { [unowned self] in self.showPrintSheet() }
        Signal.connect(playButton, "clicked") { [unowned self] in self.play() }
        Signal.connect(entriesButton, "clicked") { [unowned self] in self.showEntries() }
        Signal.connect(searchEntry, "search-changed") { [unowned self] in self.searchChanged() }
        Signal.connect(searchEntry, "activate") { [unowned self] in self.findStep(1) }
        Signal.connect(searchEntry, "next-match") { [unowned self] in self.findStep(1) }
        Signal.connect(searchEntry, "previous-match") { [unowned self] in self.findStep(-1) }
        Signal.connect(searchEntry, "stop-search") { [unowned self] in self.closeFind() }
        Signal.connect(previousMatchButton, "clicked") { [unowned self] in self.findStep(-1) }
        Signal.connect(nextMatchButton, "clicked") { [unowned self] in self.findStep(1) }
        Signal.connectIgnoringArgument(UnsafeMutableRawPointer(stack), "notify::visible-child") { [weak self] in self?.updateFooter() }
        Signal.connectReturning(window, "close-request") { [unowned self] in
            // Markup's changes not saved: the first close only says so.
            guard self.markupBar?.mayClose() ?? true else { return true }
            self.close()
            return false
        }
        // Keys go to the window first (capture phase), so they work whatever has the focus,
        // except typing in an entry.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(keys) { [unowned self] keyval, state in self.key(keyval, state) }
        gtk_widget_add_controller(window, keys)
    }

    // MARK: Showing the current file

    /// The header's card: icon, title, and the facts line (kind, size, pages, …).
    private func showCard() {
        gtk_window_set_title(cast(window), model.fileName)
        let card = model.card
        TypeIcon.show(icon, mimeType: card?.mimeType, fallback: card?.iconName ?? "text-x-generic")
        Accessibility.setDescription(icon, card?.kind ?? "unknown type")
        gtk_label_set_text(cast(titleLabel), card?.title ?? model.fileName)
        var facts: [String] = []
        if let card {
            facts.append(card.kind)
            facts.append(card.formattedSize)
            if let pages = card.pages, ![.image, .video, .audio, .font].contains(card.family) { facts.append(pages == 1 ? "1 page" : "\(pages) pages") }
            if let width = card.imageWidth, let height = card.imageHeight { facts.append("\(width) × \(height)") }
            if let lines = card.lines { facts.append(lines == 1 ? "1 line" : "\(lines) lines") }
            // The engine's first facts (a video's length and picture, a font's family); a bare
            // count says what it counts ("2 chapters").
            facts += card.details.prefix(2).map { detail in
                guard !detail.value.isEmpty, detail.value.allSatisfy(\.isNumber) else { return detail.value }
                let noun = detail.label.lowercased()
                return detail.value == "1" && noun.hasSuffix("s") ? "1 " + noun.dropLast() : detail.value + " " + noun
            }
        }
        gtk_label_set_text(cast(subtitleLabel), facts.joined(separator: " · "))
        Accessibility.setLabel(cardBox, "\(card?.title ?? model.fileName): \(facts.joined(separator: ", "))")
    }

    /// Shows the model's current file: title, card, actions, content.
    func reload() {
        showCard()
        let card = model.card
        let multiple = model.fileCount > 1
        gtk_widget_set_visible(indexButton, multiple ? 1 : 0)
        gtk_widget_set_visible(previousFileButton, multiple ? 1 : 0)
        gtk_widget_set_visible(nextFileButton, multiple ? 1 : 0)
        gtk_widget_set_visible(fileLabel, multiple ? 1 : 0)
        gtk_label_set_text(cast(fileLabel), model.fileText)
        gtk_widget_set_sensitive(previousFileButton, model.fileIndex > 0 ? 1 : 0)
        gtk_widget_set_sensitive(nextFileButton, model.fileIndex + 1 < model.fileCount ? 1 : 0)

        LookTrace.mark("card shown")
        if actionsPending {
            gtk_widget_set_visible(printButton, 0)
            gtk_widget_set_visible(openWithButton, 0)
            gtk_widget_set_tooltip_text(cardBox, nil)
            Accessibility.setDescription(cardBox, "Looking for printers")
        } else {
            reloadActions()
            LookTrace.mark("actions known (print, open with)")
        }
        printSheet?.close()
        printSheet = nil
        mediaPlayer?.stop()
        gtk_label_set_text(cast(statusLabel), "")
        let playable = card.map { $0.family == .video || $0.family == .audio } ?? false
        gtk_widget_set_visible(playButton, playable && MediaPlayer.isAvailable ? 1 : 0)
        gtk_widget_set_visible(entriesButton, model.archiveEntries.isEmpty ? 0 : 1)
        if model.find.isActive && model.find.file != model.fileIndex { model.stopFind() }
        updateFindLabel()

        switch model.content {
        case .opening:
            // The worker is opening the file: its place stays empty (a grey page area) until
            // the answer; the title says which file.
            gtk_stack_set_visible_child_name(cast(stack), "pages")
            gtk_label_set_text(cast(statusLabel), "Opening \(model.fileName)…")
            pages.reset()
        case .pages:
            gtk_stack_set_visible_child_name(cast(stack), "pages")
            pages.reset()
            showAnimationStatus()
        case .text(let content):
            if let focus = showData(content) {
                pages.reset()
                gtk_widget_grab_focus(focus)
            } else {
                text.show(content, fileName: model.fileName, mimeType: card?.mimeType)
                gtk_stack_set_visible_child_name(cast(stack), "text")
                pages.reset()
                gtk_widget_grab_focus(text.view)
            }
        case .problem(let problem):
            problemPage.show(fileName: model.fileName, problem: problem)
            let password = problem.needsPassword
            gtk_stack_set_visible_child_name(cast(stack), "problem")
            pages.reset()
            if password { gtk_widget_grab_focus(passwordEntry) }
        }
        updateIndicators()
        gtk_widget_set_visible(developButton, model.canDevelop ? 1 : 0)
        gtk_toggle_button_set_active(cast(developButton), model.isDeveloped ? 1 : 0)
        applySidebar()
        sidebar.reset()
        markupBar?.refresh()
    }

    /// The sidebar the button shows: the page thumbnails beside pages, a book's contents beside
    /// its text; the button is there only when one of them is.
    private func applySidebar() {
        let paged: Bool
        if case .pages = model.content { paged = true } else { paged = false }
        let contents = model.contents
        let hasContents = !paged && shownData == "markdown" && !contents.isEmpty
        gtk_widget_set_visible(sidebarButton, paged || hasContents ? 1 : 0)
        let what = hasContents ? "Contents" : "Page Thumbnails"
        gtk_widget_set_tooltip_text(sidebarButton, "\(what) (F9)")
        Accessibility.setLabel(sidebarButton, what)
        let active = gtk_toggle_button_get_active(cast(sidebarButton)) != 0
        sidebar.setShown(paged && active)
        if hasContents {
            contentsSidebar.show(contents)
            if let preview = markdownPreview { contentsSidebar.follow(line: preview.firstVisibleLine) }
        }
        contentsSidebar.setShown(hasContents && active)
    }

    /// Entry `index` of the book's contents chosen in the sidebar: its line at the top.
    private func goToContents(_ index: Int) {
        let entries = model.contents.entries
        guard entries.indices.contains(index), let line = entries[index].line, let preview = markdownPreview else { return }
        preview.scroll(toLine: line)
        LookTrace.mark("contents entry \(index + 1) chosen: line \(line + 1)")
    }

    /// The current file was written (Markup's Done or Revert): read again by the worker and
    /// shown as it is now.
    private func reopenFile() {
        model.reopen()
        reload()
    }

    /// A camera RAW photo developed from its sensor data, or shown from its preview again.
    private func toggleDevelop() {
        guard model.toggleDevelop() else { return }
        reload()
        status(model.isDeveloped ? "developing the sensor data at full size…" : "the camera's preview")
    }

    // MARK: Data: tables, databases, JSON, Markdown

    /// The stack's page shown now ("text", "table", "database", "json", "markdown", "pages"…).
    private var shownData: String {
        gtk_stack_get_visible_child_name(cast(stack)).map { String(cString: $0) } ?? ""
    }

    /// The widget to focus when the current text is shown as data, nil for plain text.
    private var dataFocus: UnsafeMutablePointer<GtkWidget>? {
        switch shownData {
        case "table": return tableView?.view
        case "database": return databaseBrowser?.tableList
        case "json": return jsonView?.view
        case "markdown": return markdownPreview?.view
        default: return nil
        }
    }

    /// Shows text the worker gave as a structure the window can draw as such: a table's rows
    /// as a column view, a database as its tables and rows, JSON as a tree, Markdown (and a
    /// notebook) rendered. The widget to focus, or nil for plain text (shown as text).
    private func showData(_ content: TextContent) -> UnsafeMutablePointer<GtkWidget>? {
        if let layout = content.table {
            let view = makeTableView()
            showTable(content, layout, in: view)
            gtk_stack_set_visible_child_name(cast(stack), "table")
            return view.view
        }
        if model.card?.family == .database, !model.archiveEntries.isEmpty {
            let browser: DatabaseBrowser
            if let databaseBrowser { browser = databaseBrowser } else {
                browser = DatabaseBrowser()
                browser.onChoose = { [unowned self] entry in
                    self.model.databaseTableLines(entry)
                }
                browser.table.onCopy = { [unowned self] text, what in self.copyText(text, what) }
                gtk_stack_add_named(cast(stack), browser.root, "database")
                databaseBrowser = browser
            }
            gtk_stack_set_visible_child_name(cast(stack), "database")
            // The tables are listed beside their rows: no separate list to open one from.
            gtk_widget_set_visible(entriesButton, 0)
            browser.show(model.archiveEntries)
            return browser.tableList
        }
        if let outline = model.jsonOutline, outline.lines.count == content.lines.count {
            let tree: JSONTreeView
            if let jsonView { tree = jsonView } else {
                tree = JSONTreeView()
                tree.onCopyPath = { [unowned self] path in
                    gdk_clipboard_set_text(gtk_widget_get_clipboard(self.window), path)
                    self.toast("Copied path \(path)")
                }
                gtk_stack_add_named(cast(stack), tree.root, "json")
                jsonView = tree
            }
            tree.show(lines: content.lines, outline: outline)
            gtk_stack_set_visible_child_name(cast(stack), "json")
            return tree.view
        }
        if let markdown = model.markdownStyles {
            let preview: MarkdownPreview
            if let markdownPreview { preview = markdownPreview } else {
                preview = MarkdownPreview()
                preview.onScroll = { [unowned self] line in
                    if self.contentsSidebar.isShown { self.contentsSidebar.follow(line: line) }
                }
                gtk_stack_add_named(cast(stack), preview.root, "markdown")
                markdownPreview = preview
            }
            preview.show(lines: content.lines, markdown: markdown, pictures: model.markdownPictures, isTruncated: content.isTruncated)
            gtk_stack_set_visible_child_name(cast(stack), "markdown")
            return preview.view
        }
        return nil
    }

    private func makeTableView() -> TableColumnsView {
        if let tableView { return tableView }
        let view = TableColumnsView()
        view.onSort = { [unowned self] column, _ in
            // The worker sorts (the same column again: the other way, as the headers show).
            var name = "column \(column + 1)"
            if case .text(let content) = self.model.content, let layout = content.table,
               layout.columnNames.indices.contains(column) { name = layout.columnNames[column] }
            if let problem = self.model.sortTable(column: column) {
                self.status("Cannot sort: \(problem)")
            } else {
                self.status("Sorting by \(name)…")
            }
        }
        view.onEdge = { [unowned self] edge in
            guard case .text(let content) = self.model.content, let layout = content.table else { return }
            switch edge {
            case .end: _ = self.model.goTo(layout.firstRow + content.lineCount + 1)
            case .start: _ = self.model.goTo(max(1, layout.firstRow))
            }
        }
        view.onCopy = { [unowned self] text, what in self.copyText(text, what) }
        gtk_stack_add_named(cast(stack), view.root, "table")
        tableView = view
        return view
    }

    /// A delimited table's window of rows in the column view, the model's row at the top.
    private func showTable(_ content: TextContent, _ layout: TableLayout, in view: TableColumnsView) {
        let starts = layout.columnStarts
        let cells = TableCells(names: layout.columnNames,
                               numeric: TableCells.numericColumns(header: layout.header.first, lines: content.lines, starts: starts),
                               lines: content.lines, starts: starts)
        let last = layout.firstRow + content.lineCount
        view.hasRowsBefore = layout.firstRow > 0
        view.hasRowsAfter = layout.totalRows.map { last < $0 } ?? content.isTruncated
        var status = content.lineCount == 0 ? "No rows" : "Rows \(TableRowCount.grouped(layout.firstRow + 1))–\(TableRowCount.grouped(last)) of \(layout.fileRows)"
        if let sort = layout.sort, layout.columnNames.indices.contains(sort.column) {
            status += " · sorted by \(layout.columnNames[sort.column]) (\(sort.descending ? "descending" : "ascending"))"
        }
        status += " · click a header to sort · Ctrl+C copies the selected rows"
        view.show(cells, sort: layout.sort.map { ($0.column, !$0.descending) }, top: model.position, status: status)
        LookTrace.mark("table shown (\(content.lineCount) rows from row \(layout.firstRow + 1))")
    }

    /// `text` on the clipboard, said in a toast ("Copied cell").
    private func copyText(_ text: String, _ what: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), text)
        toast("Copied \(what)")
    }

    /// Ctrl+C on a table: the selected rows, tab-separated.
    private func copyRows() {
        let view = shownData == "database" ? databaseBrowser?.table : tableView
        // No row selected: the file, as Ctrl+C with nothing selected does elsewhere.
        guard let view, let text = view.copiedText else { return copy() }
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), text)
        let count = view.selectedCount
        toast("Copied \(count) row\(count == 1 ? "" : "s")")
    }

    /// Home: the table's first row (its first window asked for when another is shown).
    private func firstRow() {
        guard case .text(let content) = model.content, let layout = content.table else { return }
        if layout.firstRow > 0 { _ = model.firstPage() } else { tableView?.scroll(to: 0) }
    }

    /// End: the table's last row (the window that ends with it asked for when not shown).
    private func lastRow() {
        guard case .text(let content) = model.content, let layout = content.table else { return }
        let reachesEnd = layout.totalRows.map { layout.firstRow + content.lineCount >= $0 } ?? !content.isTruncated
        if reachesEnd { tableView?.scroll(to: content.lineCount - 1) } else { _ = model.lastPage() }
    }

    /// Shows the current archive's files as a list; the one chosen opens as a file of its own.
    private func showEntries() {
        let entries = model.archiveEntries
        guard !entries.isEmpty else { return }
        let view: ArchiveEntriesView
        if let entriesView { view = entriesView } else {
            view = ArchiveEntriesView()
            gtk_stack_add_named(cast(stack), view.root, "entries")
            view.onOpen = { [unowned self] entry in
                self.status("Opening \(entry.path)…")
                if let problem = self.model.openArchiveEntry(entry) {
                    gtk_stack_set_visible_child_name(cast(self.stack), "pages")
                    self.status("\(entry.path) cannot be opened: \(problem.message)")
                } else {
                    self.reload()
                }
            }
            entriesView = view
        }
        gtk_stack_set_visible_child_name(cast(stack), "entries")
        view.show(entries)
    }

    /// Plays the current video or audio file: a video's frames replace its poster, an audio
    /// file's cover stays; the controls appear under it.
    private func play() {
        guard let card = model.card, card.family == .video || card.family == .audio, MediaPlayer.isAvailable else { return }
        let player: MediaPlayer
        if let mediaPlayer { player = mediaPlayer } else {
            player = MediaPlayer()
            gtk_stack_add_named(cast(stack), player.picture, "player")
            if let body = mediaControlsSlot { gtk_box_insert_child_after(cast(body), player.controls, mediaControlsAnchor) }
            mediaPlayer = player
        }
        player.play(path: model.path.bytes)
        if card.family == .video { gtk_stack_set_visible_child_name(cast(stack), "player") }
        status("Playing \(model.fileName)")
    }

    private func reloadActions() {
        // Built with the other actions: after the first page is on screen when they wait for it.
        markupTools()
        let print = model.printAction
        gtk_widget_set_visible(printButton, print.isAvailable ? 1 : 0)
        let reason = print.isAvailable ? nil : "Cannot print: \(print.reason ?? "printing is not available")"
        gtk_widget_set_tooltip_text(cardBox, reason)
        Accessibility.setDescription(cardBox, reason ?? (print.detail.map { "Can print: \($0)" } ?? "Can print"))

        if let app = defaultApplication { g_object_unref(UnsafeMutableRawPointer(app)) }
        defaultApplication = nil
        if let mime = model.card?.mimeType, let app = Self.otherApplication(for: mime) {
            defaultApplication = app
            let name = String(cString: g_app_info_get_display_name(app))
            gtk_button_set_label(cast(openWithButton), "Open with \(name)")
            // A long application name ("ImageMagick (color depth=q16)") is cut short: the header
            // keeps the window's width from file to file (the tooltip has it whole).
            if let label = gtk_button_get_child(cast(openWithButton)) {
                gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
                gtk_label_set_max_width_chars(cast(label), 26)
            }
            gtk_widget_set_tooltip_text(openWithButton, "Open with \(name)")
            gtk_widget_set_visible(openWithButton, 1)
        } else {
            gtk_widget_set_visible(openWithButton, 0)
        }
    }

    /// Quire's own desktop entry (QuireIntegration's `DesktopApplication.id`, which quire-look
    /// does not link): installed system-wide it claims every type the window previews.
    static let ownDesktopID = "io.github.quire.Quire.desktop"

    /// The application "Open with" offers for `mimeType` (a new reference): the default, unless
    /// that is Quire itself — "Open with Quire" in Quire's own window would open the same view
    /// again — then the first other application recommended for the type; nil when there is none.
    private static func otherApplication(for mimeType: String) -> OpaquePointer? {
        func isQuire(_ app: OpaquePointer) -> Bool {
            g_app_info_get_id(app).map { String(cString: $0) == ownDesktopID } ?? false
        }
        if let app = g_app_info_get_default_for_type(mimeType, 0) {
            if !isQuire(app) { return app }
            g_object_unref(UnsafeMutableRawPointer(app))
        }
        let list = g_app_info_get_recommended_for_type(mimeType)
        defer { g_list_free_full(list) { g_object_unref($0) } }
        var node = list
        while let current = node {
            if let data = current.pointee.data, !isQuire(OpaquePointer(data)) {
                g_object_ref(data)
                return OpaquePointer(data)
            }
            node = current.pointee.next
        }
        return nil
    }

    private func updateIndicators() {
        // The search's line says whether the page in view has text.
        if model.find.isActive { updateFindLabel() }
        let paged: Bool
        if case .pages = model.content { paged = true } else { paged = false }
        gtk_label_set_text(cast(positionLabel), paged ? model.positionText : "")
        gtk_label_set_text(cast(zoomLabel), paged ? model.zoomText : "")
        updateFooter()
        if paged {
            gtk_widget_set_sensitive(previousPageButton, model.page > 0 ? 1 : 0)
            gtk_widget_set_sensitive(nextPageButton, model.page + 1 < model.pageCount ? 1 : 0)
        }
    }

    /// "animated, 48 frames, 3.2 s · frame 3 of 48, paused", or why it does not play.
    private func showAnimationStatus() {
        guard !isClosed, let summary = model.animationSummary else { return }
        if let refusal = model.animationRefusal {
            status(refusal)  // the card says how many frames and how long
        } else if let state = pages.player.status {
            status("\(summary) · \(state) · k pause/play, . and , step")
        }
    }

    // MARK: Commands

    private func movePage(by step: Int) {
        guard case .pages(let count) = model.content else { return }
        pages.show(page: max(0, min(count - 1, model.page + step)))
    }

    private func moveFile(by step: Int) {
        let moved = step > 0 ? model.nextFile() : model.previousFile()
        if moved { reload() }
    }

    private func jump() {
        let text = String(cString: gtk_editable_get_text(OpaquePointer(jumpEntry)))
        guard let number = Int(text.filter { !$0.isWhitespace }) else {
            status("type a page number")
            return
        }
        if let message = model.goTo(number) {
            status(message)
        } else {
            pages.show(page: number - 1)
            gtk_editable_set_text(OpaquePointer(jumpEntry), "")
            gtk_widget_grab_focus(pages.area)
        }
    }

    private func unlock() {
        let password = String(cString: gtk_editable_get_text(OpaquePointer(passwordEntry)))
        gtk_editable_set_text(OpaquePointer(passwordEntry), "")
        model.unlock(password: password)
        reload()
        gtk_widget_grab_focus(pages.area)
    }

    private var uri: String? {
        let file = g_file_new_for_path(model.path.string)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let raw = g_file_get_uri(file) else { return nil }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    private func openWith() {
        guard let app = defaultApplication, let uri else { return }
        var error: UnsafeMutablePointer<GError>?
        let list = g_list_append(nil, g_strdup(uri))
        defer { g_list_free_full(list, g_free) }
        if g_app_info_launch_uris(app, list, nil, &error) == 0 {
            status("Could not open: \(error.map { String(cString: $0.pointee.message) } ?? "unknown error")")
            g_clear_error(&error)
        } else {
            close()
        }
    }

    /// Puts the file on the clipboard as a URI list (and its path as text).
    private func copy() {
        guard let uri else { return }
        let clipboard = gtk_widget_get_clipboard(window)
        let list = uri + "\r\n"
        let listBytes = g_bytes_new(list, gsize(list.utf8.count))
        let path = model.path.string
        let textBytes = g_bytes_new(path, gsize(path.utf8.count))
        var providers: [UnsafeMutablePointer<GdkContentProvider>?] = [
            gdk_content_provider_new_for_bytes("text/uri-list", listBytes),
            gdk_content_provider_new_for_bytes("text/plain;charset=utf-8", textBytes),
        ]
        let union = gdk_content_provider_new_union(&providers, 2)
        gdk_clipboard_set_content(clipboard, union)
        g_object_unref(UnsafeMutableRawPointer(union))
        g_bytes_unref(listBytes)
        g_bytes_unref(textBytes)
        toast("Copied \(model.fileName)")
    }

    /// The files Share and a drag carry: the index sheet's selected tiles while it is shown,
    /// otherwise the file in view.
    private var sharedPaths: [DocumentPath] {
        guard isIndexShown else { return [model.path] }
        let paths = model.paths
        return indexSheet.selectedFiles.filter { paths.indices.contains($0) }.map { paths[$0] }
    }

    /// Copy Path: the file's absolute path as text.
    private func copyPath() {
        let path = FileURI.canonicalPath(model.path.bytes).map { String(decoding: $0, as: UTF8.self) } ?? model.path.string
        gdk_clipboard_set_text(gtk_widget_get_clipboard(window), path)
        toast("Copied the path of \(model.fileName)")
    }

    /// The header's file icon is a drag source: it offers the file (the index sheet's selected
    /// files) as a `GdkFileList`, which GTK also gives as `text/uri-list` — a mail composer, a
    /// browser's upload field, a file manager or a terminal takes it.
    private func makeIconDragSource() {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_COPY)
        // The header bar moves the window when it is dragged, and its gesture starts sooner
        // (the double-click distance) than a drag does (the drag threshold): a press on the
        // icon is claimed at once, which cancels the header bar's gesture for that press.
        let press = gtk_gesture_click_new()!
        let claim = UnsafeMutableRawPointer(press)
        Signal.connectPressed(claim) { _, _, _ in
            gtk_gesture_set_state(OpaquePointer(claim), GTK_EVENT_SEQUENCE_CLAIMED)
        }
        // Grouped with the drag source: the claim is theirs together (not a denial of the drag).
        gtk_gesture_group(OpaquePointer(claim), source)
        gtk_widget_add_controller(icon, press)
        Signal.connectDragPrepare(source) { [unowned self] in self.dragContent() }
        gtk_widget_add_controller(icon, source)
        gtk_widget_set_tooltip_text(icon, "Drag the file out")
        pages.dragOutContent = { [unowned self] in self.dragContent() }
    }

    private func dragContent() -> UnsafeMutablePointer<GdkContentProvider>? {
        let paths = sharedPaths
        guard !paths.isEmpty else { return nil }
        var files: [OpaquePointer?] = paths.map { path in path.withCString { g_file_new_for_path($0) } }
        defer { for file in files { g_object_unref(UnsafeMutableRawPointer(file)) } }
        let list = files.withUnsafeMutableBufferPointer { gdk_file_list_new_from_array($0.baseAddress, gsize($0.count)) }
        var value = GValue()
        g_value_init(&value, gdk_file_list_get_type())
        g_value_take_boxed(&value, UnsafeRawPointer(list))
        defer { g_value_unset(&value) }
        status(paths.count == 1 ? "Dragging \(model.fileName)" : "Dragging \(paths.count) files")
        return gdk_content_provider_new_for_value(&value)
    }

    /// Ctrl+C with text selected on a page: the text on the clipboard (unless the document's
    /// permissions forbid copying it: then the status line says so).
    private func copySelection() {
        switch model.selectedText {
        case .success(let text):
            let clipboard = gtk_widget_get_clipboard(window)
            gdk_clipboard_set_text(clipboard, text)
            let count = text.count
            toast("Copied \(count) character\(count == 1 ? "" : "s")")
        case .failure(let problem):
            status("Not copied: \(problem.message)")
        }
    }

    /// Ctrl+Shift+C: the page in view, as painted, on the clipboard as an image (GTK offers it
    /// as PNG).
    private func copyPageImage() {
        guard case .pages = model.content, let pixels = pages.currentPagePixels else {
            status("Not copied: the page is not drawn yet")
            return
        }
        let bytes = g_bytes_new(pixels.base, gsize(pixels.byteCount))
        // cairo's ARGB32 in memory order on little-endian machines: premultiplied B, G, R, A.
        let texture = gdk_memory_texture_new(Int32(pixels.width), Int32(pixels.height), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED,
                                             bytes, gsize(pixels.width * 4))
        gdk_clipboard_set_texture(gtk_widget_get_clipboard(window), texture)
        g_object_unref(UnsafeMutableRawPointer(texture))
        g_bytes_unref(bytes)
        toast("Copied page \(model.page + 1) as an image")
    }

    /// Asks the file manager to show the file (org.freedesktop.FileManager1.ShowItems).
    private func showInFolder() {
        guard let uri else { return }
        do {
            let bus = try DBusConnection(address: nil)
            _ = try bus.call(destination: "org.freedesktop.FileManager1", path: "/org/freedesktop/FileManager1",
                             interface: "org.freedesktop.FileManager1", method: "ShowItems", [.strings([uri]), .string("")],
                             timeout: 3000)
            status("Shown in the file manager")
        } catch {
            status("No file manager answered: \(error.detail ?? error.message)")
        }
    }

    private func showPrintSheet() {
        actionsPending = false
        model.refreshActions()
        reloadActions()
        guard model.printAction.isAvailable else {
            status("Cannot print: \(model.printAction.reason ?? "printing is not available")")
            return
        }
        if let sheet = printSheet {
            sheet.present()
            return
        }
        do {
            let sheet = PrintSheetView(sheet: try model.makePrintSheet(), parent: window, currentPage: model.page) { [weak self] pages, box, deliver in
                // Through the view's render thread and worker, after the pages in view.
                guard let self else { return }
                let jobs = pages.compactMap { self.model.printPreviewJob(page: $0, fitting: box) }
                self.pages.wantPreview(jobs) { job, result in
                    if job.sheet == nil, case .success(let pixels) = result { deliver(job.page + 1, pixels) }
                }
            } renderSides: { [weak self] request, sides, box, deliver in
                // The composed job's sides, drawn in the worker by the composer that draws the job.
                guard let self else { return }
                let jobs = sides.compactMap { self.model.printPreviewSideJob(side: $0, sheet: request, fitting: box) }
                self.pages.wantPreview(jobs) { job, result in
                    if job.sheet == request, case .success(let pixels) = result { deliver(job.page, pixels) }
                }
            }
            printSheet = sheet
            sheet.present()
        } catch {
            status("Cannot print: \(error.message)")
        }
    }

    /// `quire look --print`: the Print sheet opens with the window; closing it moves on to the
    /// next file's sheet, and after the last file closes the window (an application started
    /// only to print quits when printing is done). When a sheet cannot open (the printer went
    /// away since quire checked) the window stays and says why.
    func showPrintSheetOnly() {
        // The file is still opening in the worker: the sheet opens with its answer.
        if model.isOpening {
            printOnlyWaiting = true
            return
        }
        showPrintSheet()
        guard let sheet = printSheet else { return }
        Signal.connect(sheet.window, "destroy") { [unowned self] in
            guard !self.isClosed else { return }
            if self.model.nextFile() {
                self.reload()
                self.showPrintSheetOnly()
            } else {
                self.close()
            }
        }
    }

    /// `--print` asked for the sheet while the file was opening.
    private var printOnlyWaiting = false

    func status(_ text: String) {
        gtk_label_set_text(cast(statusLabel), text)
        updateFooter()
    }

    /// A short-lived message over the preview (libadwaita's toast): "Copied …", for
    /// libadwaita's own time (5 s, as GNOME's applications show theirs).
    func toast(_ text: String) {
        let escaped = g_markup_escape_text(text, -1)
        defer { g_free(escaped) }
        let toast = adw_toast_new(escaped)!
        adw_toast_overlay_add_toast(OpaquePointer(toastOverlay), toast)
    }

    /// The name of the body's page on screen ("pages", "text", "problem", "index", "entries",
    /// "player").
    private var visibleChild: String {
        gtk_stack_get_visible_child_name(cast(stack)).map { String(cString: $0) } ?? ""
    }

    /// Page and zoom controls only where there are pages to move through and zoom: not for
    /// text, a message, the index sheet, an archive's list or a video playing.
    private var showsPageControls: Bool {
        guard case .pages = model.content, !isIndexShown else { return false }
        return visibleChild == "pages"
    }

    /// The bottom bar matches what is shown: its page and zoom controls with pages, otherwise
    /// only a status line when there is one to say, and no bar at all when there is none.
    private func updateFooter() {
        let controls = showsPageControls
        // A picture has nothing to page through: zoom only ("page 1 of 1" and page buttons
        // would be noise, as Sushi and Loupe show none).
        let family = model.card?.family
        let paging = controls && !((family == .image || family == .svg) && model.pageCount <= 1)
        for button in [zoomInButton, zoomOutButton, fitPageButton, fitWidthButton, zoomLabel] {
            gtk_widget_set_visible(button, controls ? 1 : 0)
        }
        for control in [previousPageButton, nextPageButton, jumpEntry, positionLabel] {
            gtk_widget_set_visible(control, paging ? 1 : 0)
        }
        gtk_widget_set_visible(actualSizeButton, controls && model.card?.family == .image ? 1 : 0)
        let status = gtk_label_get_text(cast(statusLabel)).map { String(cString: $0) } ?? ""
        gtk_widget_set_visible(pageBar, controls || !status.isEmpty ? 1 : 0)
    }

    // MARK: Index sheet

    private var isIndexShown: Bool { gtk_toggle_button_get_active(cast(indexButton)) != 0 }

    /// Shows the grid of all the files in place of the preview, or the preview again.
    private func setIndexSheet(_ shown: Bool) {
        if shown {
            gtk_stack_set_visible_child_name(cast(stack), "index")
            sidebar.setShown(false)
            contentsSidebar.setShown(false)
            indexSheet.show()
            status("\(model.fileCount) files · Enter opens one")
        } else {
            indexSheet.hide()
            reload()
        }
    }

    // MARK: Find

    private var isFindOpen: Bool { gtk_search_bar_get_search_mode(cast(searchBar)) != 0 }

    /// Ctrl+F: the search bar opens (or takes the focus again), its word selected.
    private func openFind() {
        gtk_search_bar_set_search_mode(cast(searchBar), 1)
        gtk_widget_grab_focus(searchEntry)
        gtk_editable_select_region(OpaquePointer(searchEntry), 0, -1)
    }

    /// Esc in the bar: it closes, the search ends, the highlights go.
    private func closeFind() {
        gtk_search_bar_set_search_mode(cast(searchBar), 0)
        model.stopFind()
        updateFindLabel()
        markFind()
        gtk_widget_queue_draw(pages.area)
        if isShowingText { gtk_widget_grab_focus(dataFocus ?? text.view) } else { gtk_widget_grab_focus(pages.area) }
    }

    private var searchText: String { String(cString: gtk_editable_get_text(OpaquePointer(searchEntry))) }

    /// The word changed (GtkSearchEntry waits for a pause in typing): a new search.
    private func searchChanged() {
        LookTrace.mark("find asked")
        if let problem = model.find(searchText) { status(problem) }
        updateFindLabel()
        markFind()
        gtk_widget_queue_draw(pages.area)
    }

    /// Enter/F3 (1), Shift+Enter/Shift+F3 (-1): the next or previous match. A word typed but not
    /// yet searched for (Enter before the pause) is searched first.
    private func findStep(_ step: Int) {
        if searchText != model.find.query {
            searchChanged()
            return
        }
        if step > 0 ? model.findNext() : model.findPrevious() { showCurrentMatch() }
        updateFindLabel()
    }

    /// The render thread's search answers came in.
    private func findUpdated(moved: Bool) {
        if moved { LookTrace.mark("first match found (page \(model.page + 1))") }
        updateFindLabel()
        if moved { showCurrentMatch() }
        markFind()
        gtk_widget_queue_draw(pages.area)
    }

    /// The search's matches marked where the text is shown: in the text or Markdown view, or
    /// the current match's row selected in a table.
    /// - Parameter moved: the current match changed (its row or node is selected only then,
    ///   not each time more matches come in).
    private func markFind(moved: Bool = false) {
        textPreview?.mark(model.find)
        markdownPreview?.mark(model.find)
        guard moved, model.find.isText, let match = model.find.currentMatch else { return }
        if shownData == "table" { tableView?.select(match.page) }
        if shownData == "json" { jsonView?.reveal(line: match.page) }
    }

    private func showCurrentMatch() {
        if case .pages = model.content { pages.show(page: model.page) }
        markFind(moved: true)
        gtk_widget_queue_draw(pages.area)
    }

    private func updateFindLabel() {
        let text = model.findText
        gtk_label_set_text(cast(matchLabel), text)
        Accessibility.setDescription(matchLabel, text)
        gtk_widget_set_sensitive(previousMatchButton, model.find.matches.isEmpty ? 0 : 1)
        gtk_widget_set_sensitive(nextMatchButton, model.find.matches.isEmpty ? 0 : 1)
    }

    // MARK: Keys

    private func key(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        // A JSON node's or a table's context menu is open: its keys (arrows, Enter, Esc) are the menu's.
        if jsonView?.isMenuOpen == true || tableView?.isMenuOpen == true || databaseBrowser?.table.isMenuOpen == true { return false }
        let control = state.rawValue & GDK_CONTROL_MASK.rawValue != 0
        let key = Int32(bitPattern: keyval)
        let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
        let command = Self.viewerKey(keyval, control: control, shift: shift).flatMap {
            ViewerCommand.command(for: $0, in: .window, findActive: isFindOpen || model.find.isActive)
        }
        // Esc ends a search first; the next one closes the window.
        if command == .endFind { closeFind(); return true }
        // On an archive's file list: Esc goes back to its listing, Enter opens the chosen file,
        // the arrows, Page Up/Down, Home and End move in the list.
        if let entriesView, let name = gtk_stack_get_visible_child_name(cast(stack)), String(cString: name) == "entries" {
            switch key {
            case GDK_KEY_Escape: gtk_stack_set_visible_child_name(cast(stack), "pages")
            case GDK_KEY_Return, GDK_KEY_KP_Enter: entriesView.activateSelected()
            case GDK_KEY_Down: entriesView.moveSelection(by: 1)
            case GDK_KEY_Up: entriesView.moveSelection(by: -1)
            case GDK_KEY_Page_Down: entriesView.moveSelection(by: 20)
            case GDK_KEY_Page_Up: entriesView.moveSelection(by: -20)
            case GDK_KEY_Home: entriesView.moveSelection(by: -Int(Int32.max))
            case GDK_KEY_End: entriesView.moveSelection(by: Int(Int32.max))
            default: return false
            }
            return true
        }
        // In a JSON tree: Right opens the selected node, Left closes it (or goes to its parent),
        // Enter does either; otherwise the keys are the window's (Left/Right: files).
        if shownData == "json", let jsonView, !control, !isFindOpen {
            switch key {
            case GDK_KEY_Right where jsonView.key(expand: true): return true
            case GDK_KEY_Left where jsonView.key(expand: false): return true
            case GDK_KEY_Return, GDK_KEY_KP_Enter:
                jsonView.toggleSelected()
                return true
            default: break
            }
        }
        // Commands that work from anywhere: an entry with the focus included (Ctrl+P has no use
        // there), the index sheet too.
        switch command {
        case .close? where key == GDK_KEY_Escape && !isIndexShown:
            if markupBar?.mayClose() ?? true { close() }
            return true
        case .find?: openFind(); return true
        case .print?: showPrintSheet(); return true
        case .markup?: markupTools().toggleShown(); return true
        case .nextMatch?: findStep(1); return true
        case .previousMatch?: findStep(-1); return true
        case .indexSheet? where model.fileCount > 1:
            gtk_toggle_button_set_active(cast(indexButton), isIndexShown ? 0 : 1)
            return true
        default: break
        }
        // In the index sheet Escape goes back to the file; the grid keeps its own keys.
        if isIndexShown {
            switch key {
            case GDK_KEY_Escape: gtk_toggle_button_set_active(cast(indexButton), 0)
            case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space: indexSheet.onOpen(indexSheet.selected)
            case GDK_KEY_Left: indexSheet.move(by: -1)
            case GDK_KEY_Right: indexSheet.move(by: 1)
            case GDK_KEY_Up: indexSheet.move(by: -indexSheet.columns)
            case GDK_KEY_Down: indexSheet.move(by: indexSheet.columns)
            case GDK_KEY_Home: indexSheet.select(0)
            case GDK_KEY_End: indexSheet.select(model.fileCount - 1)
            default: return false
            }
            return true
        }
        if command == .sidebar {
            gtk_toggle_button_set_active(cast(sidebarButton), gtk_toggle_button_get_active(cast(sidebarButton)) == 0 ? 1 : 0)
            return true
        }
        if (key == GDK_KEY_Return || key == GDK_KEY_KP_Enter), isFindOpen, let focus = gtk_window_get_focus(cast(window)),
           focus == searchEntry || gtk_widget_is_ancestor(focus, searchEntry) != 0 {
            findStep(shift ? -1 : 1)
            return true
        }
        // Typing in an entry keeps its keys (Space, arrows, Home/End, digits).
        if let focus = gtk_window_get_focus(cast(window)),
           g_type_check_instance_is_a(UnsafeMutableRawPointer(focus).assumingMemoryBound(to: GTypeInstance.self), gtk_text_get_type()) != 0 {
            return false
        }
        if !control, keyFilter(key) { return true }
        guard let command else { return false }
        return perform(command)
    }

    /// Carries out a command of the viewer-command table (those a key reaches once the search,
    /// archive list, index sheet and typing have taken theirs); whether the key was used.
    private func perform(_ command: ViewerCommand) -> Bool {
        let paged: Bool
        if case .pages = model.content { paged = true } else { paged = false }
        switch command {
        case .close: if markupBar?.mayClose() ?? true { close() }
        case .zoomIn: pages.zoom { model.zoomIn() }
        case .zoomOut: pages.zoom { model.zoomOut() }
        case .zoomToFit: pages.zoom { model.zoomToFit() }
        // With text selected, Ctrl+C copies the text (the view does); otherwise the file.
        case .copy where shownData == "text" && textPreview?.hasSelection == true: return false
        case .copy where shownData == "markdown" && markdownPreview?.hasSelection == true: return false
        case .copy where shownData == "table" || shownData == "database": copyRows()
        case .copy where shownData == "json" && jsonView?.selectedPath != nil: jsonView?.copyPath()
        case .firstPage where shownData == "table": firstRow()
        case .lastPage where shownData == "table": lastRow()
        case .copy where paged && model.selection != nil: copySelection()
        case .copy: copy()
        // Ctrl+Shift+C: the page in view as a picture (PNG).
        case .copyPageImage: copyPageImage()
        case .copyPath: copyPath()
        case .selectAll where paged: pages.selectAll()
        case .goTo: gtk_widget_grab_focus(jumpEntry)
        case .previousFile: moveFile(by: -1)
        case .nextFile: moveFile(by: 1)
        case .nextScreen where paged: movePage(by: 1)
        case .previousScreen where paged: movePage(by: -1)
        case .firstPage where paged: pages.show(page: 0)
        case .lastPage where paged: pages.show(page: max(0, model.pageCount - 1))
        case .lineDown where paged: pages.scrollBy(x: 0, y: 40)
        case .lineUp where paged: pages.scrollBy(x: 0, y: -40)
        case .undo where paged: markupBar?.undo()
        case .redo where paged: markupBar?.redo()
        case .deleteAnnotation where paged: markupBar?.removeSelected()
        case .playPause where pages.player.isActive: pages.player.playPause()
        case .nextFrame where pages.player.isActive: pages.player.step(1)
        case .previousFrame where pages.player.isActive: pages.player.step(-1)
        case .develop where model.canDevelop: toggleDevelop()
        default: return false
        }
        return true
    }

    /// The viewer-command table's name for a GDK key, or nil for keys it does not name.
    static func viewerKey(_ keyval: UInt32, control: Bool, shift: Bool) -> ViewerKey? {
        let base: ViewerKey.Base
        switch Int32(bitPattern: keyval) {
        case GDK_KEY_Escape: base = .escape
        case GDK_KEY_space: base = .space
        case GDK_KEY_Return, GDK_KEY_KP_Enter: base = .enter
        case GDK_KEY_Tab: base = .tab
        case GDK_KEY_Up: base = .up
        case GDK_KEY_Down: base = .down
        case GDK_KEY_Left: base = .left
        case GDK_KEY_Right: base = .right
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: base = .pageUp
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: base = .pageDown
        case GDK_KEY_Home: base = .home
        case GDK_KEY_End: base = .end
        case GDK_KEY_Delete, GDK_KEY_KP_Delete: base = .delete
        case GDK_KEY_F1...GDK_KEY_F12: base = .function(Int(Int32(bitPattern: keyval) - GDK_KEY_F1) + 1)
        case GDK_KEY_KP_Add: base = .character("+")
        case GDK_KEY_KP_Subtract: base = .character("-")
        case GDK_KEY_KP_0: base = .character("0")
        default:
            let code = gdk_keyval_to_unicode(keyval)
            guard code > 0x20, let scalar = Unicode.Scalar(code) else { return nil }
            var character = Character(scalar)
            // Ctrl+Shift+C arrives as "c" with Shift on some layouts, "C" on others.
            if control && shift && character.isLowercase { character = Character(character.uppercased()) }
            return ViewerKey(.character(character), control: control)
        }
        return ViewerKey(base, control: control, shift: shift)
    }

    private var isShowingText: Bool {
        if case .text = model.content { return true }
        return false
    }

    // MARK: Closing

    func close() {
        guard !isClosed else { return }
        isClosed = true
        printSheet?.close()
        mediaPlayer?.stop()
        pages.stop()
        model.close()
        gtk_window_destroy(cast(window))
        onClose()
    }

    /// Shows another model's files in this window (the previewer's next ShowFile).
    /// Shows another file in this window (the previewer service's next ShowFile). With
    /// `deferActions`, Print and Open With are looked up again only once the new file is on
    /// screen, after the next ``present()``.
    func show(model: ViewerModel, deferActions: Bool = false) {
        self.model.close()
        self.model = model
        pages.model = model
        sidebar.model = model
        indexSheet.model = model
        gtk_toggle_button_set_active(cast(indexButton), 0)
        markupBar?.forgetFiles()
        Self.active = self
        if deferActions { actionsPending = true }
        reload()
    }
}
