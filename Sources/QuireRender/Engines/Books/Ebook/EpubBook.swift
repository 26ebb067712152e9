import QuireTypes
import QuireSystem

/// An EPUB book read as a reader reads it: its title and author from the package document, the
/// cover, then the chapters in spine order as ``MarkdownText`` lines (``XHTMLChapter``) — the
/// same lines Markdown files become, so the pages, the window's rendered view and the terminal
/// show a book as they show notes. Only the book's own entries are read (through
/// ``ZipArchive``, bounded); `http:` and other outside references are never followed. A book
/// whose content is encrypted (DRM) says so.
struct EpubBook {
    private(set) var text = MarkdownText()
    private(set) var author: String?
    /// Chapters read (of the spine's) and whether the text stops early.
    private(set) var chapters = 0
    private(set) var isCut = false
    /// The book's own table of contents placed in ``text``, else its headings.
    private(set) var contents = TableOfContents()

    /// Pictures drawn (the rest are placeholders), and bytes of chapter text read in all.
    static let maximumPictures = 64
    static let maximumPictureBytes = 16 << 20
    static let maximumTextBytes = 8 << 20

    init(file: InputFile, limits: RenderLimits, maximumLines: Int = MarkdownText.maximumLines) throws(DocumentError) {
        let zip = ZipArchive(file: file, limits: limits)
        let names = try zip.entryNames()
        let present = Set(names)
        guard present.contains("META-INF/container.xml") else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not an EPUB book (no META-INF/container.xml)")
        }
        if try Self.isProtected(zip, names: present) {
            throw DocumentError(kind: .unsupported, path: file.path, reason: Self.protectedReason)
        }
        let container = XMLScan(try zip.contents(of: "META-INF/container.xml", limit: 1 << 20))
        guard let opfPath = container.elements.first(where: { $0.name == "rootfile" })?.attributes["full-path"], present.contains(opfPath) else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the EPUB's package document is missing")
        }
        let opfBytes = try zip.contents(of: opfPath, limit: 4 << 20)
        let opf = XMLScan(opfBytes)
        let base = opfPath.contains("/") ? String(opfPath[...opfPath.lastIndex(of: "/")!]) : ""
        var manifest: [String: String] = [:]
        for item in opf.elements where item.name == "item" {
            if let id = item.attributes["id"], let href = item.attributes["href"] { manifest[id] = href }
        }
        let spine = opf.elements.filter { $0.name == "itemref" && $0.attributes["linear"] != "no" }.compactMap { $0.attributes["idref"] }
        // Its contents: the EPUB 3 navigation document, else the EPUB 2 NCX the spine names.
        let items = opf.elements.filter { $0.name == "item" }
        let navigation = items.first { ($0.attributes["properties"] ?? "").split(separator: " ").contains("nav") }?.attributes["href"]
        let ncxID = opf.elements.first { $0.name == "spine" }?.attributes["toc"]
        let ncx = (ncxID.flatMap { manifest[$0] })
            ?? items.first { $0.attributes["media-type"] == "application/x-dtbncx+xml" }?.attributes["href"]
        let metadata = XMLScan.firstTexts(opfBytes, of: ["title", "creator"])
        text.title = metadata["title"]
        author = metadata["creator"]

        var pictures = 0
        func picture(_ full: String?) -> [UInt8]? {
            guard let full, present.contains(full), pictures < Self.maximumPictures,
                  let bytes = try? zip.contents(of: full, limit: Self.maximumPictureBytes) else { return nil }
            pictures += 1
            return bytes
        }
        // The cover first, as the book opens.
        if let cover = try ContainerPreview.epubCover(zip: zip, names: names), let bytes = picture(cover) {
            var line = MarkdownText.Line(text: "[cover]", kind: .image)
            line.image = bytes
            text.lines.append(line)
            text.lines.append(MarkdownText.Line(text: "", kind: .blank))
        }
        var textBytes = 0
        var chapterLines: [String: (start: Int, anchors: [String: Int])] = [:]
        for idref in spine {
            guard let href = manifest[idref], let chapterPath = Self.resolve(href, from: base, in: present) else { continue }
            guard textBytes < Self.maximumTextBytes, text.lines.count < maximumLines else { isCut = true; break }
            let bytes: [UInt8]
            do throws(DocumentError) {
                bytes = try zip.contents(of: chapterPath, limit: 4 << 20)
            } catch where error.kind == .limitExceeded {
                isCut = true   // the book's bytes read so far reach the container's limit: shown up to here
                break
            }
            textBytes += bytes.count
            let folder = chapterPath.contains("/") ? String(chapterPath[...chapterPath.lastIndex(of: "/")!]) : ""
            let chapter = XHTMLChapter(bytes, maximumLines: maximumLines - text.lines.count) { reference in
                picture(Self.resolve(reference, from: folder, in: present))
            }
            if chapterLines[chapterPath] == nil { chapterLines[chapterPath] = (text.lines.count, chapter.anchors) }
            text.lines += chapter.lines
            text.headings += chapter.headings
            text.wordCount += chapter.words
            chapters += 1
        }
        if text.title == nil { text.title = text.headings.first?.text }

        var targets: [EpubContents.Target] = []
        for (href, read) in [(navigation, EpubContents.navigation), (ncx, EpubContents.ncx)] where targets.isEmpty {
            guard let href, let path = Self.resolve(href, from: base, in: present),
                  let bytes = try? zip.contents(of: path, limit: 4 << 20) else { continue }
            let folder = path.contains("/") ? String(path[...path.lastIndex(of: "/")!]) : ""
            targets = read(bytes, folder, present)
        }
        contents = targets.isEmpty ? .headings(of: text) : TableOfContents(entries: targets.map { target in
            let chapter = target.chapter.flatMap { chapterLines[$0] }
            return TableOfContents.Entry(level: target.level, title: target.title,
                                         line: chapter.map { placed in target.fragment.flatMap { placed.anchors[$0] }.map { placed.start + $0 } ?? placed.start })
        })
    }

    static let protectedReason = "the book is protected by DRM; Quire shows only books that are not"

    /// Why the book in `file` cannot be shown (DRM), nil when it can or is no readable EPUB
    /// (opening it says why then): what the capabilities say before anything is laid out.
    static func protection(of file: InputFile, limits: RenderLimits = .standard) -> String? {
        let zip = ZipArchive(file: file, limits: limits)
        guard let names = try? zip.entryNames(), (try? isProtected(zip, names: Set(names))) == true else { return nil }
        return protectedReason
    }

    /// Whether `META-INF/encryption.xml` encrypts the book's content with a cipher: font
    /// obfuscation (IDPF, Adobe) is not DRM, only the fonts are scrambled.
    private static func isProtected(_ zip: ZipArchive, names: Set<String>) throws(DocumentError) -> Bool {
        guard names.contains("META-INF/encryption.xml") else { return false }
        let encryption = XMLScan(try zip.contents(of: "META-INF/encryption.xml", limit: 1 << 20))
        return encryption.elements.contains { element in
            element.name == "EncryptionMethod"
                && !(element.attributes["Algorithm"] ?? "").hasSuffix("/obfuscation")
                && element.attributes["Algorithm"] != "http://ns.adobe.com/pdf/enc#RC"
        }
    }

    /// `href` (percent-encoded, relative to `folder`) as an entry of the book, nil when it is
    /// outside the book (a scheme, an absolute path, above the root) or not there.
    static func resolve(_ href: String, from folder: String, in present: Set<String>) -> String? {
        let withoutFragment = String(href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard !withoutFragment.isEmpty, !withoutFragment.contains(":"), !withoutFragment.hasPrefix("/") else { return nil }
        let decoded = PercentEncoding.decodedString(withoutFragment) ?? withoutFragment
        var parts: [Substring] = []
        for part in (folder + decoded).split(separator: "/") {
            if part == ".." { guard !parts.isEmpty else { return nil }; parts.removeLast() } else if part != "." { parts.append(part) }
        }
        let full = parts.joined(separator: "/")
        return present.contains(full) ? full : nil
    }

}
