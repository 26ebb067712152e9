internal import CQPDF
import QuireSystem
import QuireTypes

/// Chooses poppler's backend for a PDF's raster thumbnail (used by the batch workers): cairo (the default, fastest on text
/// and meshes) or Splash, for first pages whose content cairo draws far more slowly.
///
/// Measured per case on generated pages (`Samples/shadings.py`, 256 px, in-process; see
/// docs/notes/batch.md): a function-based (type 1) shading whose domain maps beyond the page
/// takes cairo over 25 s and Splash 0.05 s (cairo subdivides the whole mapped domain, Splash
/// shades only visible pixels); radial (type 3) shadings are ~3× faster with Splash; axial
/// shadings are even; meshes and pages of glyphs are 2–3× faster with cairo. So Splash is chosen
/// when the first page (its resources, its form XObjects and patterns, recursively) uses a type 1
/// or type 3 shading.
package enum PageBackendProbe {
    /// Shading types Splash draws much faster than cairo.
    static let splashShadingTypes: Set<Int> = [1, 3]

    /// Whether the first page of the PDF in `file` should be drawn by Splash.
    /// - Parameter names: the file's names, when a ``PDFNameScan`` was made already (else one is).
    package static func prefersSplash(_ file: InputFile, names: PDFNameScan? = nil) -> Bool {
        // A shading dictionary names /ShadingType in plain bytes unless it sits in a compressed
        // object stream: only files that mention either are parsed.
        let names = names ?? PDFNameScan(file)
        guard names.shadingType || names.objectStream else { return false }
        guard let session = QPDFSession() else { return false }
        // A damaged file (qpdf fails, or has to repair or skip objects: warnings) may still hold
        // a shading poppler reads, as it is more lenient: then the plain bytes decide (found by
        // fuzz-thumbnail: function shadings in files with a broken xref, a lost /Root, a stray
        // token in the shading dictionary took cairo over a minute and 2 GB each).
        guard session.read(file.procPath, password: nil) else { return namesSplashShading(file) }
        defer { session.drainErrors() }  // which also keeps the handle open for the raw calls below
        let api = session.api, qpdf = session.qpdf
        let objects = ScannedPageProbe.Objects(api: api, qpdf: qpdf)
        var walk = ResourceWalk(objects: objects)
        if let page = objects.firstPage(api.qpdf_oh_get_key(qpdf, api.qpdf_get_root(qpdf), "/Pages")),
           let resources = objects.inherited(page, "/Resources"), walk.usesSplashShading(resources, depth: 0) {
            return true
        }
        let damaged = api.qpdf_more_warnings(qpdf) != 0 || api.qpdf_has_error(qpdf) != 0
        return damaged && namesSplashShading(file)
    }

    /// Whether the plain bytes name a shading type Splash is chosen for: `/ShadingType`, white
    /// space, then 1 or 3 as a whole number (shadings in compressed object streams are not seen).
    package static func namesSplashShading(_ file: InputFile) -> Bool {
        let name = Array("/ShadingType".utf8)
        return FileByteScan.contains(name, in: file, overlap: name.count + 64) { haystack, end in
            var index = end
            while index < haystack.count, [0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(haystack[index]) { index += 1 }
            guard index < haystack.count, splashShadingTypes.contains(Int(haystack[index]) - 0x30) else { return false }
            let after = index + 1
            return after == haystack.count || !(0x30...0x39).contains(haystack[after]) && haystack[after] != 0x2E
        }
    }

    /// A bounded walk over resource dictionaries (reference loops and huge trees stop it).
    struct ResourceWalk {
        let objects: ScannedPageProbe.Objects
        var visited = 0
        static let maximumVisits = 256
        static let maximumDepth = 8

        mutating func usesSplashShading(_ resources: qpdf_oh, depth: Int) -> Bool {
            let api = objects.api, qpdf = objects.qpdf
            visited += 1
            guard visited <= Self.maximumVisits, depth <= Self.maximumDepth,
                  api.qpdf_oh_is_dictionary(qpdf, resources) != 0 else { return false }
            let shadings = api.qpdf_oh_get_key(qpdf, resources, "/Shading")
            if api.qpdf_oh_is_dictionary(qpdf, shadings) != 0 {
                for name in objects.keys(shadings) where isSplashShading(api.qpdf_oh_get_key(qpdf, shadings, name)) { return true }
            }
            let patterns = api.qpdf_oh_get_key(qpdf, resources, "/Pattern")
            if api.qpdf_oh_is_dictionary(qpdf, patterns) != 0 {
                for name in objects.keys(patterns) {
                    let pattern = dictionary(of: api.qpdf_oh_get_key(qpdf, patterns, name))
                    guard api.qpdf_oh_is_dictionary(qpdf, pattern) != 0 else { continue }
                    if objects.number(api.qpdf_oh_get_key(qpdf, pattern, "/PatternType")) == 2 {
                        if isSplashShading(api.qpdf_oh_get_key(qpdf, pattern, "/Shading")) { return true }
                    } else if usesSplashShading(api.qpdf_oh_get_key(qpdf, pattern, "/Resources"), depth: depth + 1) {
                        return true
                    }
                }
            }
            let xobjects = api.qpdf_oh_get_key(qpdf, resources, "/XObject")
            if api.qpdf_oh_is_dictionary(qpdf, xobjects) != 0 {
                for name in objects.keys(xobjects) {
                    let xobject = api.qpdf_oh_get_key(qpdf, xobjects, name)
                    guard api.qpdf_oh_is_stream(qpdf, xobject) != 0 else { continue }
                    let dict = api.qpdf_oh_get_dict(qpdf, xobject)
                    guard api.qpdf_oh_is_name_and_equals(qpdf, api.qpdf_oh_get_key(qpdf, dict, "/Subtype"), "/Form") != 0 else { continue }
                    if usesSplashShading(api.qpdf_oh_get_key(qpdf, dict, "/Resources"), depth: depth + 1) { return true }
                }
            }
            return false
        }

        /// A dictionary, or a stream's dictionary (shadings of types 4–7 and tiling patterns are streams).
        func dictionary(of handle: qpdf_oh) -> qpdf_oh {
            objects.api.qpdf_oh_is_stream(objects.qpdf, handle) != 0 ? objects.api.qpdf_oh_get_dict(objects.qpdf, handle) : handle
        }

        func isSplashShading(_ handle: qpdf_oh) -> Bool {
            let shading = dictionary(of: handle)
            guard objects.api.qpdf_oh_is_dictionary(objects.qpdf, shading) != 0,
                  let type = objects.integer(objects.api.qpdf_oh_get_key(objects.qpdf, shading, "/ShadingType")) else { return false }
            return splashShadingTypes.contains(type)
        }
    }

}
