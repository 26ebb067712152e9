// Generates Quire's sample files with cairo (PDF, PNG) and gdk-pixbuf (JPEG).
// Every drawn fact (page count, page size, colours, positions, metadata) is a constant below
// so that tests can check rendered and reported values against how the file was made.
import CCairo
import GeneratorGdkPixbuf
import Foundation

let output = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Samples/generated"

enum Spec {
    static let pageWidth = 595.28, pageHeight = 841.89   // A4 in points
    static let pageCount = 3
    static let title = "Quire Sample Document"
    static let author = "Quire Project"
    static let subject = "Sample for tests"
    static let creator = "Quire sample generator"
    static let created = "2026-01-02T03:04:05Z"
    // Page 1: a pure red rectangle, in points from the top-left corner.
    static let redRect = (x: 72.0, y: 72.0, width: 200.0, height: 100.0)
    static let pngWidth: Int32 = 64, pngHeight: Int32 = 48
    static let jpegWidth: Int32 = 80, jpegHeight: Int32 = 60
    static let textLines = 120
    // Image formats (PNG, JPEG, TIFF, BMP, WebP, GIF): 300×200, left half red, right half blue.
    static let formatWidth: Int32 = 300, formatHeight: Int32 = 200
    // ICO: 128×64 (the ICO saver allows at most 256×256), same halves.
    static let icoWidth: Int32 = 128, icoHeight: Int32 = 64
    // photo-rotated.jpg: stored 80×60 like photo.jpg (left red, right blue) with EXIF
    // orientation 6 (rotate 90° clockwise): upright it is 60×80, top red, bottom blue.
    static let rotatedOrientation = 6
    // Embedded previews in containers: 240×160 solid green (ODF/OOXML/iWork previews, EPUB
    // cover, first CBZ page). Other CBZ pages and EPUB images are solid red.
    static let previewWidth: Int32 = 240, previewHeight: Int32 = 160
    // long.txt: 200 lines; with 62 lines per A4 page that is 4 pages.
    static let longTextLines = 200
    // thousand-pages.pdf: 1000 A4 pages of text, for the memory benchmark.
    static let thousandPages = 1000
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("generate-samples: \(message)\n".utf8))
    exit(1)
}

func check(_ status: cairo_status_t, _ what: String) {
    if status != CAIRO_STATUS_SUCCESS { fail("\(what): \(String(cString: cairo_status_to_string(status)))") }
}

func makeDocumentPDF(_ path: String) {
    guard let surface = cairo_pdf_surface_create(path, Spec.pageWidth, Spec.pageHeight) else { fail("pdf surface") }
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, Spec.title)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, Spec.author)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, Spec.subject)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, Spec.creator)
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, Spec.created)
    let cr = cairo_create(surface)
    for page in 1...Spec.pageCount {
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 24)
        cairo_move_to(cr, 72, 240)
        cairo_show_text(cr, "Quire sample, page \(page) of \(Spec.pageCount)")
        cairo_select_font_face(cr, "serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 11)
        for line in 0..<30 {
            cairo_move_to(cr, 72, 280 + Double(line) * 16)
            cairo_show_text(cr, "Line \(line + 1): The quick brown fox jumps over the lazy dog.")
        }
        if page == 1 {
            let r = Spec.redRect
            cairo_set_source_rgb(cr, 1, 0, 0)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
        }
        // Vector shapes: a blue circle and a green triangle on every page.
        cairo_set_source_rgb(cr, 0, 0, 1)
        cairo_arc(cr, 420, 122, 50, 0, 2 * .pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0, 0.6, 0)
        cairo_move_to(cr, 300, 780); cairo_line_to(cr, 400, 780); cairo_line_to(cr, 350, 700)
        cairo_close_path(cr)
        cairo_fill(cr)
        cairo_show_page(cr)
    }
    check(cairo_status(cr), "drawing")
    cairo_destroy(cr)
    cairo_surface_finish(surface)
    check(cairo_surface_status(surface), "writing \(path)")
    cairo_surface_destroy(surface)
}

/// 64×48 PNG in four quadrants: red (top-left), green (top-right), blue (bottom-left),
/// white (bottom-right).
func makeQuadrantPNG(_ path: String) {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Spec.pngWidth, Spec.pngHeight)
    let cr = cairo_create(surface)
    let w = Double(Spec.pngWidth) / 2, h = Double(Spec.pngHeight) / 2
    for (x, y, rgb) in [(0.0, 0.0, (1.0, 0.0, 0.0)), (w, 0, (0, 1, 0)), (0, h, (0, 0, 1)), (w, h, (1, 1, 1))] {
        cairo_set_source_rgb(cr, rgb.0, rgb.1, rgb.2)
        cairo_rectangle(cr, x, y, w, h)
        cairo_fill(cr)
    }
    cairo_destroy(cr)
    check(cairo_surface_write_to_png(surface, path), "writing \(path)")
    cairo_surface_destroy(surface)
}

/// 80×60 JPEG: left half red, right half blue.
func makeJPEG(_ path: String) {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Spec.jpegWidth, Spec.jpegHeight) else { fail("pixbuf") }
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    let pixels = gdk_pixbuf_get_pixels(pixbuf)!
    for y in 0..<Int(Spec.jpegHeight) {
        for x in 0..<Int(Spec.jpegWidth) {
            let p = pixels + y * stride + x * 3
            let red = x < Int(Spec.jpegWidth) / 2
            p[0] = red ? 255 : 0; p[1] = 0; p[2] = red ? 0 : 255
        }
    }
    var error: UnsafeMutablePointer<GError>?
    let keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
    let values: [UnsafeMutablePointer<CChar>?] = [strdup("95"), nil]
    var mutableKeys = keys, mutableValues = values
    if gdk_pixbuf_savev(pixbuf, path, "jpeg", &mutableKeys, &mutableValues, &error) == 0 {
        fail("writing \(path): \(error.map { String(cString: $0.pointee.message) } ?? "?")")
    }
    keys.forEach { free($0) }
    values.forEach { free($0) }
    g_object_unref(UnsafeMutableRawPointer(pixbuf))
}

/// A `width`×`height` RGB pixbuf filled by `color(x, y)`.
func makePixbuf(_ width: Int32, _ height: Int32, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> OpaquePointer {
    guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height) else { fail("pixbuf") }
    let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
    let pixels = gdk_pixbuf_get_pixels(pixbuf)!
    for y in 0..<Int(height) {
        for x in 0..<Int(width) {
            let p = pixels + y * stride + x * 3
            let (r, g, b) = color(x, y)
            p[0] = r; p[1] = g; p[2] = b
        }
    }
    return pixbuf
}

func save(_ pixbuf: OpaquePointer, _ path: String, _ format: String, _ options: [(String, String)] = []) {
    var error: UnsafeMutablePointer<GError>?
    var keys: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.0) } + [nil]
    var values: [UnsafeMutablePointer<CChar>?] = options.map { strdup($0.1) } + [nil]
    if gdk_pixbuf_savev(pixbuf, path, format, &keys, &values, &error) == 0 {
        fail("writing \(path): \(error.map { String(cString: $0.pointee.message) } ?? "?")")
    }
    keys.forEach { free($0) }
    values.forEach { free($0) }
}

/// gdk-pixbuf's WebP format, if a loader is installed.
func webpFormat() -> OpaquePointer? {
    guard let formats = gdk_pixbuf_get_formats() else { return nil }
    defer { g_slist_free(formats) }
    var node: UnsafeMutablePointer<GSList>? = formats
    while let current = node {
        if let data = current.pointee.data, let name = gdk_pixbuf_format_get_name(OpaquePointer(data)) {
            defer { g_free(name) }
            if String(cString: name) == "webp" { return OpaquePointer(data) }
        }
        node = current.pointee.next
    }
    return nil
}

/// One image per gdk-pixbuf saver, and the raw parts the zip containers are built from.
func makeFormatImages(_ dir: String) {
    let halves = makePixbuf(Spec.formatWidth, Spec.formatHeight) { x, _ in x < Int(Spec.formatWidth) / 2 ? (255, 0, 0) : (0, 0, 255) }
    save(halves, dir + "format.png", "png")
    save(halves, dir + "format.jpg", "jpeg", [("quality", "95")])
    save(halves, dir + "format.tiff", "tiff")
    save(halves, dir + "format.bmp", "bmp")
    // WebP only where webp-pixbuf-loader (its loader and saver) is installed.
    if let webp = webpFormat(), gdk_pixbuf_format_is_writable(webp) != 0 {
        save(halves, dir + "format.webp", "webp", [("lossless", "TRUE")])
    } else {
        FileHandle.standardError.write(Data("generate-samples: no WebP saver (webp-pixbuf-loader); format.webp skipped\n".utf8))
    }
    g_object_unref(UnsafeMutableRawPointer(halves))
    let icon = makePixbuf(Spec.icoWidth, Spec.icoHeight) { x, _ in x < Int(Spec.icoWidth) / 2 ? (255, 0, 0) : (0, 0, 255) }
    save(icon, dir + "format.ico", "ico")
    g_object_unref(UnsafeMutableRawPointer(icon))

    let parts = dir + ".parts/"
    try? FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
    let green = makePixbuf(Spec.previewWidth, Spec.previewHeight) { _, _ in (0, 255, 0) }
    save(green, parts + "green.png", "png")
    save(green, parts + "green.jpg", "jpeg", [("quality", "95")])
    g_object_unref(UnsafeMutableRawPointer(green))
    let red = makePixbuf(Spec.previewWidth, Spec.previewHeight) { _, _ in (255, 0, 0) }
    save(red, parts + "red.png", "png")
    save(red, parts + "red.jpg", "jpeg", [("quality", "95")])
    g_object_unref(UnsafeMutableRawPointer(red))
}

/// Many pages of text, for memory measurements.
func makeThousandPagePDF(_ path: String) {
    guard let surface = cairo_pdf_surface_create(path, Spec.pageWidth, Spec.pageHeight) else { fail("pdf surface") }
    let cr = cairo_create(surface)
    cairo_select_font_face(cr, "serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    cairo_set_font_size(cr, 11)
    for page in 1...Spec.thousandPages {
        cairo_set_source_rgb(cr, 0, 0, 0)
        for line in 0..<20 {
            cairo_move_to(cr, 72, 100 + Double(line) * 16)
            cairo_show_text(cr, "Page \(page), line \(line + 1): The quick brown fox jumps over the lazy dog.")
        }
        cairo_set_source_rgb(cr, 1, 0, 0)
        cairo_rectangle(cr, 72, 500, 200, 100)
        cairo_fill(cr)
        cairo_show_page(cr)
    }
    check(cairo_status(cr), "drawing")
    cairo_destroy(cr)
    cairo_surface_finish(surface)
    check(cairo_surface_status(surface), "writing \(path)")
    cairo_surface_destroy(surface)
}

func write(_ path: String, _ text: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}

try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
let dir = output + "/"
makeDocumentPDF(dir + "document.pdf")
makeQuadrantPNG(dir + "quadrants.png")
makeJPEG(dir + "photo.jpg")
makeFormatImages(dir)
makeThousandPagePDF(dir + "thousand-pages.pdf")
write(dir + "long.txt", (1...Spec.longTextLines).map { "Line \($0) of the long text sample." }.joined(separator: "\n") + "\n")
write(dir + "notes.txt", (1...Spec.textLines).map { "Note \($0): plain text sample line." }.joined(separator: "\n") + "\n")
write(dir + "hello.c", """
    #include <stdio.h>

    /* A C source sample. */
    int main(void)
    {
    \tprintf("hello, quire\\n");
    \treturn 0;
    }

    """)
