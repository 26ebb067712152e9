import QuireRender

/// A document as the worker opened it for a viewer (the reply to ``RenderRequestKind/open``):
/// the pages and their sizes (for laying out a scroll before any page is drawn), for a text
/// file shown as text its lines, and what the viewer's card shows of it (title, author, an
/// image's size, the engine's ``CardRow``s). The viewer computes nothing from the file itself.
/// What `quire info` tells of a file is ``DocumentInfo``.
public struct OpenedDocument: Sendable, Hashable {
    /// The type shared-mime-info gave the content (the worker sniffed it).
    public var mimeType: String
    /// Each page's size in points (in pixels for raster images); empty for text shown as text.
    public var pageSizes: [PageSize]
    /// Whether pages have their own pixel size (images, embedded previews): not enlarged.
    public var isRaster: Bool
    /// The lines of a text file opened with ``DocumentRequest/Layout/view``.
    public var text: TextContent?
    /// The document's own title and author (PDF metadata), when it names them.
    public var title: String?
    public var author: String?
    /// The pixel size of an image.
    public var imageWidth: Int?
    public var imageHeight: Int?
    /// For containers: the entry the preview image came from.
    public var embeddedPreviewName: String?
    /// What the engine knows beyond the pages (a video's length, a font's family).
    public var details: [CardRow] = []
    /// An archive's file entries that can be opened (sorted by path).
    public var entries: [ArchiveEntryFact] = []
    /// Only page 1 can be drawn yet (an office document opened page 1 first): the page count
    /// and sizes are the layout's; the request again without `firstPageFirst` gives the facts
    /// of the finished document.
    public var isProvisional = false
    /// False when only page 1 was made (``DocumentRequest/firstPageOnly``, a spreadsheet) and
    /// the document's page count is not known: ``pageSizes`` has the pages that can be drawn.
    public var pageCountIsKnown = true
    /// A JSON document shown as text: what each of ``text``'s lines is in the tree (its
    /// ``JSONOutline/text`` is left empty: the lines are ``text``).
    public var outline: JSONOutline?
    /// A Markdown file shown as text: each of ``text``'s lines' kind and style runs (their
    /// ``MarkdownText/Line/text`` left empty: the lines are ``text``).
    public var markdown: MarkdownText?
    /// Those lines' pictures (a notebook's image outputs, a Markdown file's own pictures, a
    /// book's), decoded by the worker: the viewer shows pixels, never decodes the file's bytes.
    public var markdownPictures: [Picture] = []

    /// A picture line's pixels.
    public struct Picture: Sendable, Hashable {
        public var line: Int
        public var image: RenderedImage
        public init(line: Int, image: RenderedImage) { self.line = line; self.image = image }
    }
    /// The box a picture is fitted to, and the most bytes of pixels sent for one document.
    public static let pictureBox = (width: 720, height: 540)
    public static let maximumPictureBytes = 24 << 20
    /// A PDF shown as pages: whether a viewer may add annotations to it (Markup), and if not,
    /// why (its permissions), in one line; a still image: whether Markup may turn and crop it
    /// (JPEG and PNG), and if not, why. nil for anything else.
    public var markup: MarkupPermission?

    /// Whether a PDF lets a viewer mark it up (``markup``).
    public enum MarkupPermission: Sendable, Hashable {
        case allowed
        case forbidden(String)
    }

    /// An animated image (GIF, APNG, WebP): its frames, one play's length and loops, as its
    /// blocks say; its frames come one by one (``RenderRequestKind/frame``).
    public var animation: AnimationInfo?
    /// Why that animation is not played (too many frames, a format whose frames gdk-pixbuf
    /// does not decode): one line; nil when it plays.
    public var animationRefusal: String?
    /// A book's table of contents (EPUB), each entry at a line of ``text``.
    public var contents = TableOfContents()

    public init(mimeType: String, pageSizes: [PageSize], isRaster: Bool, text: TextContent? = nil, title: String? = nil,
                author: String? = nil, imageWidth: Int? = nil, imageHeight: Int? = nil, embeddedPreviewName: String? = nil) {
        self.mimeType = mimeType
        self.pageSizes = pageSizes
        self.isRaster = isRaster
        self.text = text
        self.title = title
        self.author = author
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.embeddedPreviewName = embeddedPreviewName
    }

    public var pageCount: Int { pageSizes.count }

    /// Pixel size of page `index` rendered at `size`, as the worker will draw it (the same rule
    /// as ``Renderer/pixelSize(page:size:allowUpscaling:)``, from the facts alone).
    public func pixelSize(page index: Int, size: RenderSize, allowUpscaling: Bool, limits: RenderLimits) -> (width: Int, height: Int) {
        guard pageSizes.indices.contains(index) else { return (1, 1) }
        return Renderer.pixelSize(for: pageSizes[index], isRaster: isRaster, size: size, allowUpscaling: allowUpscaling,
                                  maximumPixels: limits.maximumOutputPixels)
    }

    /// Most pages and lines a reply carries (a document over this is refused by its engine's
    /// own page limit long before).
    static let maximumPages = 1 << 20
    static let maximumDetails = 64
    static let maximumLines = 1 << 22

    func write(to writer: inout WireWriter) {
        writer.string(mimeType)
        writer.integer(Int64(pageSizes.count))
        for size in pageSizes {
            writer.double(size.width)
            writer.double(size.height)
        }
        writer.integer(isRaster ? 1 : 0)
        if let text {
            writer.integer(1)
            writer.integer(text.isTruncated ? 1 : 0)
            writer.integer(Int64(text.lines.count))
            for line in text.lines { writer.string(line) }
        } else {
            writer.integer(0)
        }
        writer.optionalString(title)
        writer.optionalString(author)
        writer.integer(Int64(imageWidth ?? -1))
        writer.integer(Int64(imageHeight ?? -1))
        writer.optionalString(embeddedPreviewName)
        writer.integer(Int64(details.count))
        for detail in details {
            writer.string(detail.label)
            writer.string(detail.value)
        }
        writer.integer(Int64(entries.count))
        for entry in entries {
            writer.string(entry.path)
            writer.integer(entry.size ?? -1)
            writer.integer(entry.modified ?? Int64.min)
            writer.optionalString(entry.summary)
        }
        writer.integer((isProvisional ? 1 : 0) | (pageCountIsKnown ? 0 : 2))
        if let table = text?.table {
            writer.integer(1)
            table.write(to: &writer)
        } else {
            writer.integer(0)
        }
        if let outline {
            writer.integer(1)
            writer.string(outline.topLevel)
            writer.integer(Int64(outline.topLevelCount))
            writer.integer(Int64(outline.depth))
            writer.integer((outline.isTruncated ? 1 : 0) | (outline.isLines ? 2 : 0))
            writer.integer(Int64(outline.lines.count))
            for line in outline.lines {
                writer.integer(Int64(line.depth))
                writer.string(line.label)
                writer.integer(Int64(line.end ?? -1))
                writer.integer(Int64(line.count))
                writer.integer(line.isObject ? 1 : 0)
            }
        } else {
            writer.integer(0)
        }
        if let markdown {
            writer.integer(1)
            writer.integer(Int64(markdown.lines.count))
            for line in markdown.lines {
                writer.integer(Int64(line.kind.rawValue))
                writer.integer(Int64(line.level))
                writer.integer(Int64(line.runs.count))
                for run in line.runs {
                    writer.integer(Int64(run.start))
                    writer.integer(Int64(run.length))
                    // The colour (a notebook's ANSI output) above the style's bits.
                    writer.integer(Int64(run.style.rawValue) | Int64(run.colour) << 8)
                }
            }
            writer.integer(Int64(markdownPictures.count))
            for picture in markdownPictures {
                writer.integer(Int64(picture.line))
                writer.integer(Int64(picture.image.width))
                writer.integer(Int64(picture.image.height))
                writer.data(picture.image.pixels)
            }
        } else {
            writer.integer(0)
        }
        switch markup {
        case nil: writer.integer(0)
        case .allowed?: writer.integer(1)
        case .forbidden(let reason)?:
            writer.integer(2)
            writer.string(reason)
        }
        if let animation {
            writer.integer(1)
            writer.integer(Int64(animation.frames))
            writer.double(animation.duration)
            writer.integer(Int64(animation.loops ?? -1))
            writer.integer(animation.isCut ? 1 : 0)
            writer.optionalString(animationRefusal)
        } else {
            writer.integer(0)
        }
        writer.integer(Int64(contents.entries.count) << 1 | (contents.isFromHeadings ? 1 : 0))
        for entry in contents.entries {
            writer.integer(Int64(entry.level))
            writer.string(entry.title)
            writer.integer(Int64(entry.line ?? -1))
        }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        mimeType = try reader.string()
        let pages = try reader.count(atMost: Self.maximumPages)
        var sizes: [PageSize] = []
        sizes.reserveCapacity(pages)
        for _ in 0..<pages {
            let width = try reader.double(), height = try reader.double()
            guard width.isFinite, height.isFinite, width > 0, height > 0 else { throw WireReader.Malformed() }
            sizes.append(PageSize(width: width, height: height))
        }
        pageSizes = sizes
        isRaster = try reader.integer() == 1
        if try reader.integer() == 1 {
            let truncated = try reader.integer() == 1
            let count = try reader.count(atMost: Self.maximumLines)
            var lines: [String] = []
            lines.reserveCapacity(count)
            for _ in 0..<count { lines.append(try reader.string()) }
            text = TextContent(lines: lines, isTruncated: truncated)
        } else {
            text = nil
        }
        title = try reader.optionalString()
        author = try reader.optionalString()
        let width = try reader.integer(), height = try reader.integer()
        imageWidth = width >= 0 ? Int(width) : nil
        imageHeight = height >= 0 ? Int(height) : nil
        embeddedPreviewName = try reader.optionalString()
        let count = try reader.count(atMost: Self.maximumDetails)
        details = []
        for _ in 0..<count { details.append(CardRow(try reader.string(), try reader.string())) }
        let entryCount = try reader.count(atMost: ArchiveListing.maximumEntries)
        entries = []
        entries.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            let path = try reader.string(), size = try reader.integer(), modified = try reader.integer()
            var entry = ArchiveEntryFact(path: path, size: size >= 0 ? size : nil, modified: modified == Int64.min ? nil : modified)
            entry.summary = try reader.optionalString()
            entries.append(entry)
        }
        let provisional = try reader.integer()
        guard (0...3).contains(provisional) else { throw WireReader.Malformed() }
        isProvisional = provisional & 1 != 0
        pageCountIsKnown = provisional & 2 == 0
        if try reader.integer() == 1 {
            let table = try TableLayout(reading: &reader)
            text?.table = table
        }
        if try reader.integer() == 1 {
            var outline = JSONOutline()
            outline.topLevel = try reader.string()
            outline.topLevelCount = Int(try reader.integer())
            outline.depth = Int(try reader.integer())
            let flags = try reader.integer()
            outline.isTruncated = flags & 1 != 0
            outline.isLines = flags & 2 != 0
            let count = try reader.count(atMost: Self.maximumLines)
            outline.lines.reserveCapacity(count)
            for index in 0..<count {
                let depth = try reader.integer(), label = try reader.string(), end = try reader.integer()
                let items = try reader.integer(), isObject = try reader.integer() == 1
                guard depth >= 0, depth <= Int64(JSONOutline.maximumDepth) + 64, end == -1 || (end > Int64(index) && end < Int64(count)),
                      items >= 0 else { throw WireReader.Malformed() }
                outline.lines.append(JSONOutline.Line(depth: Int(depth), label: label, end: end < 0 ? nil : Int(end),
                                                      count: Int(items), isObject: isObject))
            }
            self.outline = outline
        }
        if try reader.integer() == 1 {
            var markdown = MarkdownText()
            let count = try reader.count(atMost: Self.maximumLines)
            markdown.lines.reserveCapacity(count)
            for _ in 0..<count {
                guard let kind = MarkdownText.Line.Kind(rawValue: UInt8(clamping: try reader.integer())) else { throw WireReader.Malformed() }
                let level = try reader.integer()
                let runCount = try reader.count(atMost: 1 << 16)
                var runs: [MarkdownText.Run] = []
                for _ in 0..<runCount {
                    let start = try reader.integer(), length = try reader.integer(), style = try reader.integer()
                    guard start >= 0, length >= 0, start < 1 << 31, length < 1 << 31 else { throw WireReader.Malformed() }
                    let colour = UInt8(truncatingIfNeeded: style >> 8)
                    runs.append(MarkdownText.Run(start: Int(start), length: Int(length), style: MarkdownText.Style(rawValue: UInt8(truncatingIfNeeded: style)),
                                                 colour: colour <= 16 ? colour : 0))
                }
                markdown.lines.append(MarkdownText.Line(text: "", kind: kind, level: Int(clamping: level), runs: runs))
            }
            self.markdown = markdown
            let pictureCount = try reader.count(atMost: MarkdownText.maximumLines)
            var spent = 0
            for _ in 0..<pictureCount {
                let line = try reader.integer(), width = try reader.integer(), height = try reader.integer()
                let pixels = try reader.data()
                guard line >= 0, line < Int64(count), markdown.lines[Int(line)].kind == .image,
                      width > 0, height > 0, width <= Int64(Self.pictureBox.width), height <= Int64(Self.pictureBox.height),
                      pixels.count == Int(width * height * 4) else { throw WireReader.Malformed() }
                spent += pixels.count
                guard spent <= Self.maximumPictureBytes else { throw WireReader.Malformed() }
                markdownPictures.append(Picture(line: Int(line), image: RenderedImage(width: Int(width), height: Int(height), pixels: pixels)))
            }
        }
        switch try reader.integer() {
        case 0: markup = nil
        case 1: markup = .allowed
        case 2: markup = .forbidden(try reader.string())
        default: throw WireReader.Malformed()
        }
        if try reader.integer() == 1 {
            let frames = try reader.integer(), duration = try reader.double(), loops = try reader.integer(), cut = try reader.integer()
            guard frames > 1, frames < 1 << 31, duration.isFinite, duration >= 0, loops >= -1, loops < 1 << 31 else {
                throw WireReader.Malformed()
            }
            animation = AnimationInfo(frames: Int(frames), duration: duration, loops: loops < 0 ? nil : Int(loops), isCut: cut == 1)
            animationRefusal = try reader.optionalString()
        }
        let word = try reader.integer()
        guard word >= 0, word >> 1 <= Int64(TableOfContents.maximumEntries) else { throw WireReader.Malformed() }
        contents.isFromHeadings = word & 1 != 0
        for _ in 0..<Int(word >> 1) {
            let level = try reader.integer(), title = try reader.string(), line = try reader.integer()
            guard (1...Int64(TableOfContents.maximumLevel)).contains(level), line >= -1, line < Int64(Self.maximumLines) else {
                throw WireReader.Malformed()
            }
            contents.entries.append(TableOfContents.Entry(level: Int(level), title: title, line: line < 0 ? nil : Int(line)))
        }
    }
}
