import CGtk
import QuireViewer

/// Pages that came back from the render thread, ready to paint: a cairo surface over each
/// page's own pixels (no copy), kept least recently used first and bounded in bytes — the
/// page view's pages and the sidebar's thumbnails alike.
@MainActor
final class PaintedPages {
    struct Page {
        let surface: OpaquePointer  // cairo_surface_t, owned here
        let pixels: PagePixels  // what the surface draws from: kept as long as the surface is
    }

    private var pages: RecentlyUsed<PageRenderJob, Page>

    init(byteLimit: Int) {
        pages = RecentlyUsed(byteLimit: byteLimit)
    }

    var byteLimit: Int { pages.byteLimit }
    /// The jobs held, least recently used first.
    var order: [PageRenderJob] { pages.order }
    /// The pixels' bytes held.
    var bytes: Int { pages.byteCount }

    /// The page painted for `job`, without counting it as used.
    subscript(job: PageRenderJob) -> Page? { pages[job] }

    /// The page painted for `job`, counted as used (it goes last to be dropped).
    func use(_ job: PageRenderJob) -> Page? { pages.use(job) }

    /// Keeps `pixels` for `job` (ARGB32 rows of `width * 4` bytes, cairo's stride for that
    /// width); then, past the byte limit, drops the least recently used pages — never those in
    /// `keeping` (on screen) nor the one just added.
    func insert(_ job: PageRenderJob, _ pixels: PagePixels, keeping: Set<PageRenderJob>) {
        guard !pages.contains(job) else { return }
        let surface = cairo_image_surface_create_for_data(pixels.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(pixels.width), Int32(pixels.height), Int32(pixels.width * 4))!
        let dropped = pages.insert(Page(surface: surface, pixels: pixels), bytes: pixels.byteCount, for: job) { keeping.contains($0) }
        for page in dropped { cairo_surface_destroy(page.surface) }
    }

    func remove(_ job: PageRenderJob) {
        if let page = pages.remove(job) { cairo_surface_destroy(page.surface) }
    }

    func removeAll() {
        for page in pages.removeAll(where: { _ in true }) { cairo_surface_destroy(page.surface) }
    }
}
