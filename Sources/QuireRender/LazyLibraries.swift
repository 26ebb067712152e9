internal import CGdkPixbuf
internal import CSpectre
internal import CArchive
internal import CRsvg
internal import CPangoCairo
import QuireTypes

/// Libraries loaded with `dlopen` the first time their family is rendered (gdk-pixbuf,
/// libspectre with Ghostscript, libarchive, librsvg, Pango). Linking them would make every `quire` process map and
/// relocate them — tens of milliseconds and megabytes — even for a PDF thumbnail.
enum LazyLibraries {
    private static let pixbufAPI: quire_gdkpixbuf_api? = quire_gdkpixbuf_api_load()?.pointee
    private static let spectreAPI: quire_spectre_api? = quire_spectre_api_load()?.pointee
    private static let archiveAPI: quire_archive_api? = quire_archive_api_load()?.pointee
    private static let pangoAPI: quire_pangocairo_api? = quire_pangocairo_api_load()?.pointee
    private static let rsvgAPI: quire_rsvg_api? = quire_rsvg_api_load()?.pointee

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

    static func rsvg(_ path: DocumentPath) throws(DocumentError) -> quire_rsvg_api {
        guard let api = rsvgAPI else { throw missing("librsvg (librsvg2-2)", "SVG", path) }
        return api
    }

    static func pango(_ path: DocumentPath?) throws(DocumentError) -> quire_pangocairo_api {
        guard let api = pangoAPI else { throw missing("Pango (libpangocairo-1.0-0)", "text layout", path) }
        return api
    }

    private static func missing(_ library: String, _ what: String, _ path: DocumentPath?) -> DocumentError {
        DocumentError(kind: .unsupported, path: path, reason: "\(what) needs \(library), which is not installed")
    }
}
