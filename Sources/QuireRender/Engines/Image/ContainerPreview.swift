import FoundationEssentials
import QuireTypes
import QuireSystem

/// Finds the preview image a zip-based document carries: OpenDocument
/// (`Thumbnails/thumbnail.png`), OOXML (`docProps/thumbnail.*`), iWork (`QuickLook/Thumbnail.jpg`,
/// `preview.jpg`), EPUB (the cover named by the OPF manifest) and CBZ (the first image in name
/// order).
enum ContainerPreview {
    /// Preview entry names of office formats, most specific first.
    static let officeNames = [
        "Thumbnails/thumbnail.png",
        "docProps/thumbnail.jpeg", "docProps/thumbnail.jpg", "docProps/thumbnail.png",
        "QuickLook/Thumbnail.jpg", "QuickLook/Preview.jpg", "preview.jpg", "preview-web.jpg", "preview-micro.jpg",
    ]

    /// The embedded preview's bytes and entry name.
    static func extract(from file: InputFile, family: DocumentFamily, limits: RenderLimits) throws(DocumentError) -> (name: String, bytes: [UInt8]) {
        let zip = ZipArchive(file: file, limits: limits)
        let names = try zip.entryNames()
        let present = Set(names)
        let chosen: String?
        switch family {
        case .ebook:
            chosen = try epubCover(zip: zip, names: names) ?? firstImage(names)
        default:
            chosen = officeNames.first(where: present.contains)
                ?? names.first { $0.hasPrefix("docProps/thumbnail.") }
        }
        guard let chosen else {
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "the document carries no preview image")
        }
        if chosen.lowercased().hasSuffix(".wmf") || chosen.lowercased().hasSuffix(".emf") {
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "the embedded preview is a Windows metafile, which Quire cannot draw")
        }
        return (chosen, try zip.contents(of: chosen))
    }

    /// The first image entry in natural name order ("page2" before "page10"), skipping
    /// hidden entries and macOS resource forks.
    static func firstImage(_ names: [String]) -> String? {
        names.filter(ComicBookArchive.isPage).min(by: NaturalNameOrder.areInIncreasingOrder)
    }

    /// EPUB: `META-INF/container.xml` names the OPF; the OPF's manifest names the cover
    /// (EPUB 3 `properties="cover-image"`, EPUB 2 `<meta name="cover" content="ID">`, else an
    /// image item whose id or href says "cover").
    static func epubCover(zip: ZipArchive, names: [String]) throws(DocumentError) -> String? {
        guard names.contains("META-INF/container.xml") else { return nil }
        let container = XMLScan(try zip.contents(of: "META-INF/container.xml", limit: 1 << 20))
        guard let opfPath = container.elements.first(where: { $0.name == "rootfile" })?.attributes["full-path"],
              names.contains(opfPath) else { return nil }
        let opf = XMLScan(try zip.contents(of: opfPath, limit: 4 << 20))
        let items = opf.elements.filter { $0.name == "item" }
        let directory = opfPath.contains("/") ? String(opfPath[...opfPath.lastIndex(of: "/")!]) : ""
        func resolve(_ href: String) -> String? {
            let decoded = PercentEncoding.decodedString(href) ?? href
            var parts: [Substring] = []
            for part in (directory + decoded).split(separator: "/") {
                if part == ".." { if !parts.isEmpty { parts.removeLast() } } else if part != "." { parts.append(part) }
            }
            let full = parts.joined(separator: "/")
            return names.contains(full) ? full : nil
        }
        func isImage(_ item: XMLScan.Element) -> Bool {
            item.attributes["media-type"]?.hasPrefix("image/") ?? false
        }
        if let item = items.first(where: { ($0.attributes["properties"] ?? "").split(separator: " ").contains("cover-image") }),
           let href = item.attributes["href"], let found = resolve(href) {
            return found
        }
        if let id = opf.elements.first(where: { $0.name == "meta" && $0.attributes["name"] == "cover" })?.attributes["content"],
           let item = items.first(where: { $0.attributes["id"] == id }), let href = item.attributes["href"],
           let found = resolve(href) {
            return found
        }
        if let item = items.first(where: { isImage($0) && (($0.attributes["id"] ?? "") + ($0.attributes["href"] ?? "")).lowercased().contains("cover") }),
           let href = item.attributes["href"], let found = resolve(href) {
            return found
        }
        return nil
    }
}

extension RenderEngine {
    /// Zip containers that carry a preview image (OpenDocument, OOXML, iWork, EPUB): the image,
    /// through the image engine's decoder.
    static let containerPreview = RenderEngine(name: "container-preview", families: [.officeDocument]) {
        (input) throws(DocumentError) in
        let (name, bytes) = try ContainerPreview.extract(from: input.file, family: input.contentType.family, limits: input.limits)
        let decoder = ImageDecoder(source: .bytes(bytes, name: name), path: input.file.path, limits: input.limits)
        return Opened(source: try ImageSource(decoder: decoder, header: Array(bytes.prefix(256 * 1024))), embeddedPreviewName: name)
    }
}
