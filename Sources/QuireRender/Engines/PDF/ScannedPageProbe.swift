internal import CQPDF
#if canImport(Glibc)
import Glibc
#endif
import QuireTypes
import QuireSystem

/// Finds PDFs whose first page is nothing but one upright image covering the page or most of it
/// on white paper (scans, photos saved as PDF, large pictures exported as a page) and hands out that image's stored bytes, so the
/// thumbnail can be decoded at a reduced scale instead of poppler decoding every pixel at full
/// resolution: a JPEG (`/DCTDecode`) with DCT scaling, a `/FlateDecode` image (8-bit gray or
/// RGB, no predictor or PNG predictors) by inflating it row by row into a box filter.
///
/// The checks are strict; anything else (text or vector content, several images, masks,
/// `/Decode`, rotation, CMYK, indexed colours, other filters, an image covering less than a
/// quarter of the page or reaching outside it)
/// returns nil and the page goes through the normal renderer. Uses libqpdf's object API on the
/// already open descriptor.
package struct ScannedPageProbe {
    /// The first page's single image and the page's size in points.
    package struct Scan {
        package enum Image {
            /// A whole JPEG file (the stream with any filters before `/DCTDecode` undone).
            case jpeg([UInt8])
            /// A Flate-compressed raster, still compressed.
            case flate(FlateImageDownscaler.Source)
        }
        package var image: Image
        /// The image's size in pixels (from its dictionary).
        package var imageWidth: Int
        package var imageHeight: Int
        package var pageWidth: Double
        package var pageHeight: Double
        /// Where the image is drawn, in points from the page's top-left corner (the whole page
        /// when it covers it; otherwise the rest of the page is white paper).
        package var placement: Placement
        package var pageCount: Int

        package struct Placement: Sendable, Equatable {
            package var x: Double, y: Double, width: Double, height: Double

            package init(x: Double, y: Double, width: Double, height: Double) {
                self.x = x; self.y = y; self.width = width; self.height = height
            }
        }

        /// Whether the image covers the whole page.
        package var coversPage: Bool {
            placement == Placement(x: 0, y: 0, width: pageWidth, height: pageHeight)
        }

        /// The JPEG's bytes, for a JPEG page.
        package var jpeg: [UInt8]? {
            if case .jpeg(let bytes) = image { return bytes }
            return nil
        }
    }

    /// Looks at `file`; nil when the fast path does not apply (or the PDF is unreadable to qpdf).
    /// - Parameter names: the file's names, when a ``PDFNameScan`` was made already (else one is).
    package static func scan(of file: InputFile, names: PDFNameScan? = nil) -> Scan? {
        // An image stream's dictionary is never inside a compressed object stream, so a PDF with
        // an image XObject names /Image in plain bytes: a cheap scan rules out most documents
        // before qpdf parses anything.
        guard (names ?? PDFNameScan(file)).image else { return nil }
        guard let session = QPDFSession(), session.read(file.procPath, password: nil) else { return nil }
        defer { withExtendedLifetime(session) {} }  // the handle stays open for the raw calls below
        let api = session.api, qpdf = session.qpdf
        let object = Objects(api: api, qpdf: qpdf)
        // The first page by descending the page tree (not qpdf's all-pages cache, which loads
        // every page object of a long document).
        let tree = api.qpdf_oh_get_key(qpdf, api.qpdf_get_root(qpdf), "/Pages")
        guard let page = object.firstPage(tree) else { return nil }
        let countHandle = api.qpdf_oh_get_key(qpdf, tree, "/Count")
        guard api.qpdf_oh_is_integer(qpdf, countHandle) != 0 else { return nil }
        let pages = Int(api.qpdf_oh_get_int_value_as_int(qpdf, countHandle))
        guard pages >= 1 else { return nil }

        // Geometry: no rotation, the media box (inheritable) defines the page.
        if let rotate = object.inherited(page, "/Rotate"), object.integer(rotate).map({ $0 % 360 != 0 }) ?? true { return nil }
        guard let mediaBox = object.inherited(page, "/MediaBox"), let box = object.numbers(mediaBox), box.count == 4 else { return nil }
        if api.qpdf_oh_has_key(qpdf, page, "/CropBox") != 0 {
            guard let crop = object.numbers(api.qpdf_oh_get_key(qpdf, page, "/CropBox")), crop == box else { return nil }
        }
        let width = box[2] - box[0], height = box[3] - box[1]
        guard width > 1, height > 1, width < 1e7, height < 1e7 else { return nil }  // also rules out infinities

        // Resources: exactly one XObject, an 8-bit DeviceRGB/DeviceGray (or ICC N=1/3) JPEG or
        // Flate image.
        guard let resources = object.inherited(page, "/Resources"), api.qpdf_oh_is_dictionary(qpdf, resources) != 0 else { return nil }
        let xobjects = api.qpdf_oh_get_key(qpdf, resources, "/XObject")
        guard api.qpdf_oh_is_dictionary(qpdf, xobjects) != 0 else { return nil }
        let names = object.keys(xobjects)
        guard names.count == 1, let imageName = names.first else { return nil }
        let image = api.qpdf_oh_get_key(qpdf, xobjects, imageName)
        guard api.qpdf_oh_is_stream(qpdf, image) != 0 else { return nil }
        let dict = api.qpdf_oh_get_dict(qpdf, image)
        guard api.qpdf_oh_is_name_and_equals(qpdf, api.qpdf_oh_get_key(qpdf, dict, "/Subtype"), "/Image") != 0 else { return nil }
        for key in ["/SMask", "/Mask", "/Decode", "/ImageMask"] where api.qpdf_oh_has_key(qpdf, dict, key) != 0 {
            if key == "/ImageMask", api.qpdf_oh_get_bool_value(qpdf, api.qpdf_oh_get_key(qpdf, dict, key)) == 0 { continue }
            return nil
        }
        guard object.number(api.qpdf_oh_get_key(qpdf, dict, "/BitsPerComponent")) == 8 else { return nil }
        guard let components = object.simpleColorSpaceComponents(api.qpdf_oh_get_key(qpdf, dict, "/ColorSpace")),
              let imageWidth = object.integer(api.qpdf_oh_get_key(qpdf, dict, "/Width")),
              let imageHeight = object.integer(api.qpdf_oh_get_key(qpdf, dict, "/Height")),
              imageWidth > 0, imageHeight > 0 else { return nil }
        let filter = api.qpdf_oh_get_key(qpdf, dict, "/Filter")
        let filters: [String]
        if api.qpdf_oh_is_name(qpdf, filter) != 0 {
            filters = [object.name(filter)]
        } else if api.qpdf_oh_is_array(qpdf, filter) != 0 {
            filters = (0..<api.qpdf_oh_get_array_n_items(qpdf, filter)).map { object.name(api.qpdf_oh_get_array_item(qpdf, filter, $0)) }
        } else {
            return nil
        }
        let isJPEG = filters.last == "/DCTDecode"
            && filters.dropLast().allSatisfy({ ["/FlateDecode", "/LZWDecode", "/ASCII85Decode", "/ASCIIHexDecode"].contains($0) })
        var predictor = 1
        if !isJPEG {
            guard filters == ["/FlateDecode"],
                  let value = object.pngPredictor(api.qpdf_oh_get_key(qpdf, dict, "/DecodeParms"), components: components, width: imageWidth)
            else { return nil }
            predictor = value
        }

        // Content: only q/Q, cm and `/Name Do`, and the image's unit square must cover the page.
        var contentPointer: UnsafeMutablePointer<UInt8>?
        var contentLength = 0
        guard api.qpdf_oh_get_page_content_data(qpdf, page, &contentPointer, &contentLength) == 0, let contentPointer else { return nil }
        let content = Array(UnsafeBufferPointer(start: contentPointer, count: contentLength))
        free(contentPointer)
        guard contentLength < 4096, let matrix = Self.imageMatrix(content, imageName: String(imageName.dropFirst())) else { return nil }
        // The image upright (no rotation, skew or flip) inside the page, covering at least a
        // quarter of it: a scan or photo with or without white margins. Within 1 % of the page's
        // edges it is taken to cover the page.
        let tolerance = max(width, height) * 0.01
        guard abs(matrix.b) < 1e-6, abs(matrix.c) < 1e-6, matrix.a > 0, matrix.d > 0,
              matrix.e >= box[0] - tolerance, matrix.f >= box[1] - tolerance,
              matrix.e + matrix.a <= box[2] + tolerance, matrix.f + matrix.d <= box[3] + tolerance,
              matrix.a * matrix.d >= width * height / 4 else { return nil }
        let covers = abs(matrix.a - width) <= tolerance && abs(matrix.d - height) <= tolerance
            && abs(matrix.e - box[0]) <= tolerance && abs(matrix.f - box[1]) <= tolerance
        let placement = covers ? Scan.Placement(x: 0, y: 0, width: width, height: height)
            : Scan.Placement(x: max(0, matrix.e - box[0]), y: max(0, box[3] - (matrix.f + matrix.d)),
                             width: min(matrix.a, width), height: min(matrix.d, height))

        // A JPEG comes out of qpdf with the filters before /DCTDecode undone; a Flate image as stored.
        var dataPointer: UnsafeMutablePointer<UInt8>?
        var dataLength = 0
        var filtered: QPDF_BOOL = 0
        guard api.qpdf_oh_get_stream_data(qpdf, image, isJPEG ? qpdf_dl_generalized : qpdf_dl_none, &filtered,
                                          &dataPointer, &dataLength) == 0,
              let dataPointer else { return nil }
        defer { free(dataPointer) }
        let data = Array(UnsafeBufferPointer(start: dataPointer, count: dataLength))
        session.drainErrors()
        let found: Scan.Image
        if isJPEG {
            guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
            found = .jpeg(data)
        } else {
            guard !data.isEmpty else { return nil }
            found = .flate(FlateImageDownscaler.Source(compressed: data, width: imageWidth, height: imageHeight,
                                                       components: components, predictor: predictor))
        }
        return Scan(image: found, imageWidth: imageWidth, imageHeight: imageHeight,
                    pageWidth: width, pageHeight: height, placement: placement, pageCount: pages)
    }

    /// PDF white-space and delimiter characters (what may end a name).
    static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "/"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "%"),
             UInt8(ascii: "{"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }

    struct Matrix {
        var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

        /// `self` applied after `other` (PDF `cm` pre-multiplies the current matrix).
        func concatenated(with other: Matrix) -> Matrix {
            Matrix(a: a * other.a + b * other.c, b: a * other.b + b * other.d,
                   c: c * other.a + d * other.c, d: c * other.b + d * other.d,
                   e: e * other.a + f * other.c + other.e, f: e * other.b + f * other.d + other.f)
        }
    }

    /// The CTM in force at the single `/imageName Do`, if the content is only `q`, `Q`, `cm`
    /// and that one `Do`; nil otherwise.
    static func imageMatrix(_ content: [UInt8], imageName: String) -> Matrix? {
        let tokens = content.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x0C })
            .map { String(decoding: $0, as: UTF8.self) }
        var stack: [Matrix] = []
        var current = Matrix()
        var operands: [String] = []
        var drawn: Matrix?
        for token in tokens {
            switch token {
            case "q":
                guard operands.isEmpty else { return nil }
                stack.append(current)
            case "Q":
                guard operands.isEmpty, let top = stack.popLast() else { return nil }
                current = top
            case "cm":
                let values = operands.compactMap(Double.init)
                guard values.count == 6, operands.count == 6 else { return nil }
                current = Matrix(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
                    .concatenated(with: current)
                operands = []
            case "Do":
                guard drawn == nil, operands == ["/" + imageName] else { return nil }
                drawn = current
                operands = []
            default:
                guard operands.count < 6 else { return nil }
                operands.append(token)
                continue
            }
            if token != "cm" && token != "Do" { operands = [] }
        }
        return operands.isEmpty ? drawn : nil
    }

    /// Small helpers over qpdf object handles.
    struct Objects {
        let api: quire_qpdf_api
        let qpdf: qpdf_data

        /// The leftmost leaf of the page tree under `node`.
        /// The first page under the page tree root `node`, found as poppler finds it
        /// (Catalog::cachePageTree): a kid is a page when its /Type is /Page *or it has no
        /// /Kids* (poppler accepts pages without /Type; the probe used to stop there, sending a
        /// page poppler draws to the wrong backend — found by fuzz-thumbnail).
        func firstPage(_ node: qpdf_oh) -> qpdf_oh? {
            var current = node
            for _ in 0..<32 {
                guard api.qpdf_oh_is_dictionary(qpdf, current) != 0 else { return nil }
                let kids = api.qpdf_oh_get_key(qpdf, current, "/Kids")
                guard api.qpdf_oh_is_array(qpdf, kids) != 0, api.qpdf_oh_get_array_n_items(qpdf, kids) > 0 else { return nil }
                let kid = api.qpdf_oh_get_array_item(qpdf, kids, 0)
                guard api.qpdf_oh_is_dictionary(qpdf, kid) != 0 else { return nil }
                if api.qpdf_oh_is_name_and_equals(qpdf, api.qpdf_oh_get_key(qpdf, kid, "/Type"), "/Page") != 0
                    || api.qpdf_oh_has_key(qpdf, kid, "/Kids") == 0 {
                    return kid
                }
                current = kid
            }
            return nil
        }

        func inherited(_ page: qpdf_oh, _ key: String) -> qpdf_oh? { api.inherited(key, of: page, in: qpdf) }

        func number(_ handle: qpdf_oh) -> Double? {
            api.qpdf_oh_is_number(qpdf, handle) != 0 ? api.qpdf_oh_get_numeric_value(qpdf, handle) : nil
        }

        /// A number that is a whole value of reasonable size (a hostile `/Width 1e300` must not
        /// trap in a conversion to Int); nil otherwise.
        func integer(_ handle: qpdf_oh) -> Int? {
            guard let value = number(handle), value.isFinite, abs(value) < 1e9, value == value.rounded() else { return nil }
            return Int(value)
        }

        func numbers(_ handle: qpdf_oh) -> [Double]? {
            guard api.qpdf_oh_is_array(qpdf, handle) != 0 else { return nil }
            let values = (0..<api.qpdf_oh_get_array_n_items(qpdf, handle)).compactMap { number(api.qpdf_oh_get_array_item(qpdf, handle, $0)) }
            return values.count == Int(api.qpdf_oh_get_array_n_items(qpdf, handle)) ? values : nil
        }

        func name(_ handle: qpdf_oh) -> String {
            guard api.qpdf_oh_is_name(qpdf, handle) != 0, let name = api.qpdf_oh_get_name(qpdf, handle) else { return "" }
            return String(cString: name)
        }

        func keys(_ dictionary: qpdf_oh) -> [String] {
            var out: [String] = []
            api.qpdf_oh_begin_dict_key_iter(qpdf, dictionary)
            while api.qpdf_oh_dict_more_keys(qpdf) != 0, out.count < 64 {
                if let key = api.qpdf_oh_dict_next_key(qpdf) { out.append(String(cString: key)) }
            }
            return out
        }

        /// The number of components of DeviceRGB (3), DeviceGray (1), or ICCBased with 1 or 3
        /// components; nil for any other colour space.
        func simpleColorSpaceComponents(_ handle: qpdf_oh) -> Int? {
            if api.qpdf_oh_is_name(qpdf, handle) != 0 {
                switch name(handle) {
                case "/DeviceRGB": return 3
                case "/DeviceGray": return 1
                default: return nil
                }
            }
            guard api.qpdf_oh_is_array(qpdf, handle) != 0, api.qpdf_oh_get_array_n_items(qpdf, handle) == 2,
                  name(api.qpdf_oh_get_array_item(qpdf, handle, 0)) == "/ICCBased" else { return nil }
            let profile = api.qpdf_oh_get_array_item(qpdf, handle, 1)
            guard api.qpdf_oh_is_stream(qpdf, profile) != 0 else { return nil }
            switch number(api.qpdf_oh_get_key(qpdf, api.qpdf_oh_get_dict(qpdf, profile), "/N")) {
            case 1: return 1
            case 3: return 3
            default: return nil
            }
        }

        /// The predictor of a `/FlateDecode` image's `/DecodeParms`: 1 when absent or 1, 10–15
        /// (PNG) when `/Colors`, `/BitsPerComponent` and `/Columns` match the image; nil for
        /// anything else (TIFF predictor, other parameters).
        func pngPredictor(_ parameters: qpdf_oh, components: Int, width: Int) -> Int? {
            var dictionary = parameters
            if api.qpdf_oh_is_array(qpdf, dictionary) != 0 {
                guard api.qpdf_oh_get_array_n_items(qpdf, dictionary) == 1 else { return nil }
                dictionary = api.qpdf_oh_get_array_item(qpdf, dictionary, 0)
            }
            guard api.qpdf_oh_is_dictionary(qpdf, dictionary) != 0 else {
                // Absent (qpdf gives null) is no predictor; anything else is not understood.
                return api.qpdf_oh_is_null(qpdf, dictionary) != 0 ? 1 : nil
            }
            func value(_ key: String, default fallback: Int) -> Int? {
                guard api.qpdf_oh_has_key(qpdf, dictionary, key) != 0 else { return fallback }
                return integer(api.qpdf_oh_get_key(qpdf, dictionary, key))
            }
            guard let predictor = value("/Predictor", default: 1) else { return nil }
            if predictor == 1 { return 1 }
            guard (10...15).contains(predictor), value("/Colors", default: 1) == components,
                  value("/BitsPerComponent", default: 8) == 8, value("/Columns", default: 1) == width else { return nil }
            return predictor
        }
    }
}
