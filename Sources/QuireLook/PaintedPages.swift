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

    let byteLimit: Int
    private var pages: [PageRenderJob: Page] = [:]
    /// The jobs held, least recently used first.
    private(set) var order: [PageRenderJob] = []
    /// The pixels' bytes held.
    private(set) var bytes = 0

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// The page painted for `job`, without counting it as used.
    subscript(job: PageRenderJob) -> Page? { pages[job] }

    /// The page painted for `job`, counted as used (it goes last to be dropped).
    func use(_ job: PageRenderJob) -> Page? {
        guard let page = pages[job] else { return nil }
        if order.last != job, let index = order.lastIndex(of: job) {
            order.remove(at: index)
            order.append(job)
        }
        return page
    }

    /// Keeps `pixels` for `job` (ARGB32 rows of `width * 4` bytes, cairo's stride for that
    /// width); then, past the byte limit, drops the least recently used pages — never those in
    /// `keeping` (on screen) nor the one just added.
    func insert(_ job: PageRenderJob, _ pixels: PagePixels, keeping: Set<PageRenderJob>) {
        guard pages[job] == nil else { return }
        let surface = cairo_image_surface_create_for_data(pixels.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(pixels.width), Int32(pixels.height), Int32(pixels.width * 4))!
        pages[job] = Page(surface: surface, pixels: pixels)
        order.append(job)
        bytes += pixels.byteCount
        while bytes > byteLimit, let oldest = order.dropLast().first(where: { !keeping.contains($0) }) {
            remove(oldest)
        }
    }

    func remove(_ job: PageRenderJob) {
        guard let page = pages.removeValue(forKey: job) else { return }
        order.removeAll { $0 == job }
        bytes -= page.pixels.byteCount
        cairo_surface_destroy(page.surface)
    }

    func removeAll() {
        for job in order { remove(job) }
    }
}
