internal import CCairo
internal import CPoppler
internal import CGdkPixbuf
internal import CSpectre
internal import CArchive
internal import CRsvg
internal import CPangoCairo
internal import CFontconfig
internal import CGStreamer
internal import CDjVuLibre
internal import CLibRaw
internal import CJXL
internal import CAVIF
internal import CHEIF
internal import CGMime
import QuireTypes

/// Libraries loaded with `dlopen` the first time they are needed: cairo when Quire first draws,
/// poppler-glib when it first opens a PDF, and per family gdk-pixbuf, libspectre with
/// Ghostscript, libarchive, librsvg and Pango. Linking them would make every `quire` process map
/// and relocate them — milliseconds to tens of milliseconds and megabytes — even `--version`.
///
/// cairo and poppler-glib are reached through the globals ``libcairo`` and ``libpoppler``
/// (`libcairo.cairo_create(…)`), after ``requireCairo(_:)`` / ``requirePoppler(_:)`` checked on
/// the way in that they loaded; the optional libraries through the throwing accessors below.
enum LazyLibraries {
    private static let cairoAPI: quire_cairo_api? = {
        FontconfigFallback.applyIfNeeded()   // before cairo brings fontconfig in
        return quire_cairo_api_load()?.pointee
    }()
    private static let popplerAPI: quire_poppler_api? = {
        FontconfigFallback.applyIfNeeded()   // before poppler brings cairo and fontconfig in
        return quire_poppler_api_load()?.pointee
    }()
    private static let pixbufAPI: quire_gdkpixbuf_api? = quire_gdkpixbuf_api_load()?.pointee
    private static let spectreAPI: quire_spectre_api? = quire_spectre_api_load()?.pointee
    private static let archiveAPI: quire_archive_api? = quire_archive_api_load()?.pointee
    private static let pangoAPI: quire_pangocairo_api? = quire_pangocairo_api_load()?.pointee
    private static let rsvgAPI: quire_rsvg_api? = quire_rsvg_api_load()?.pointee
    private static let fontconfigAPI: quire_fontconfig_api? = {
        FontconfigFallback.applyIfNeeded()
        return quire_fontconfig_api_load()?.pointee
    }()

    /// Throws when cairo is not installed; afterwards ``libcairo`` is safe to use.
    static func requireCairo(_ path: DocumentPath?) throws(DocumentError) {
        guard cairoAPI != nil else { throw missing("cairo (libcairo2)", "drawing", path) }
    }

    /// Throws when poppler-glib is not installed; afterwards ``libpoppler`` is safe to use.
    static func requirePoppler(_ path: DocumentPath?) throws(DocumentError) {
        guard popplerAPI != nil else { throw missing("poppler-glib (libpoppler-glib8)", "PDF", path) }
    }

    static var cairo: quire_cairo_api {
        guard let cairoAPI else { preconditionFailure("libcairo.so.2 is not loaded; LazyLibraries.requireCairo checks this first") }
        return cairoAPI
    }

    static var poppler: quire_poppler_api {
        guard let popplerAPI else { preconditionFailure("libpoppler-glib.so.8 is not loaded; LazyLibraries.requirePoppler checks this first") }
        return popplerAPI
    }

    static func pixbuf(_ path: DocumentPath?) throws(DocumentError) -> quire_gdkpixbuf_api {
        guard let api = pixbufAPI else { throw missing("gdk-pixbuf (libgdk-pixbuf-2.0-0)", "images", path) }
        return api
    }

    /// gdk-pixbuf when installed (for probes that answer "not readable" rather than fail).
    static var installedPixbuf: quire_gdkpixbuf_api? { pixbufAPI }

    static func spectre(_ path: DocumentPath) throws(DocumentError) -> quire_spectre_api {
        guard let api = spectreAPI else { throw missing("libspectre (libspectre1 with Ghostscript)", "PostScript", path) }
        return api
    }

    static func archive(_ path: DocumentPath) throws(DocumentError) -> quire_archive_api {
        guard let api = archiveAPI else { throw missing("libarchive (libarchive13)", "zip containers", path) }
        return api
    }

    private static let djvuAPI: quire_djvu_api? = quire_djvu_api_load()?.pointee

    static func djvu(_ path: DocumentPath) throws(DocumentError) -> quire_djvu_api {
        guard let api = djvuAPI else { throw missing("DjVuLibre (libdjvulibre21)", "DjVu", path) }
        return api
    }

    private static let rawAPI: quire_raw_api? = quire_raw_api_load()?.pointee

    static func raw(_ path: DocumentPath) throws(DocumentError) -> quire_raw_api {
        guard let api = rawAPI else { throw missing("LibRaw (libraw20)", "camera RAW", path) }
        return api
    }

    private static let jxlAPI: quire_jxl_api? = quire_jxl_api_load()?.pointee

    static func jxl(_ path: DocumentPath) throws(DocumentError) -> quire_jxl_api {
        guard let api = jxlAPI else { throw missing("libjxl (libjxl0.7)", "JPEG XL", path) }
        return api
    }

    private static let avifAPI: quire_avif_api? = quire_avif_api_load()?.pointee

    static func avif(_ path: DocumentPath) throws(DocumentError) -> quire_avif_api {
        guard let api = avifAPI else { throw missing("libavif (libavif15)", "an animated AVIF", path) }
        return api
    }

    private static let heifAPI: quire_heif_api? = quire_heif_api_load()?.pointee

    static func heif(_ path: DocumentPath) throws(DocumentError) -> quire_heif_api {
        guard let api = heifAPI else { throw missing("libheif (libheif1)", "HEIF", path) }
        return api
    }

    /// Whether libheif can be loaded (else HEIF goes to gdk-pixbuf's loaders).
    static var heifIsInstalled: Bool { heifAPI != nil }

    private static let gmimeAPI: quire_gmime_api? = quire_gmime_api_load()?.pointee

    static func gmime(_ path: DocumentPath) throws(DocumentError) -> quire_gmime_api {
        guard let api = gmimeAPI else { throw missing("GMime (libgmime-3.0-0)", "e-mail", path) }
        return api
    }

    static func rsvg(_ path: DocumentPath) throws(DocumentError) -> quire_rsvg_api {
        guard let api = rsvgAPI else { throw missing("librsvg (librsvg2-2)", "SVG", path) }
        return api
    }

    static func pango(_ path: DocumentPath?) throws(DocumentError) -> quire_pangocairo_api {
        guard let api = pangoAPI else { throw missing("Pango (libpangocairo-1.0-0)", "text layout", path) }
        return api
    }

    /// GStreamer, initialised once for the process (`gst_init_check`) and its pbutils.
    private static let gstreamerAPI: quire_gstreamer_api? = {
        guard let api = quire_gstreamer_api_load()?.pointee else { return nil }
        var error: UnsafeMutablePointer<GError>?
        guard api.gst_init_check(nil, nil, &error) != 0 else {
            if let error { g_error_free(error) }
            return nil
        }
        api.gst_pb_utils_init()
        return api
    }()

    static func gstreamer(_ path: DocumentPath?) throws(DocumentError) -> quire_gstreamer_api {
        guard let api = gstreamerAPI else {
            throw missing("GStreamer (libgstreamer1.0-0, gstreamer1.0-plugins-base)", "video and audio", path)
        }
        return api
    }

    static func fontconfig(_ path: DocumentPath?) throws(DocumentError) -> quire_fontconfig_api {
        guard let api = fontconfigAPI else { throw missing("fontconfig (libfontconfig1)", "fonts", path) }
        return api
    }

    private static func missing(_ library: String, _ what: String, _ path: DocumentPath?) -> DocumentError {
        DocumentError(kind: .unsupported, path: path, reason: "\(what) needs \(library), which is not installed")
    }
}

/// cairo's entry points, loaded on first use: `libcairo.cairo_create(…)`.
var libcairo: quire_cairo_api { LazyLibraries.cairo }

/// poppler-glib's entry points, loaded on first use: `libpoppler.poppler_page_render(…)`.
var libpoppler: quire_poppler_api { LazyLibraries.poppler }
