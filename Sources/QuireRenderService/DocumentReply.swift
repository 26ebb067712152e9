import QuireRender

/// The worker's answer to an `open`, `page` or `text` request. A page's pixels do not go in the
/// frame: `page` announces their size and `width × height × 4` bytes of RGBA follow the frame
/// on the pipe, so the viewer reads them straight into the page's own memory.
package enum DocumentReply: Sendable {
    case opened(DocumentFacts)
    case page(width: Int, height: Int)
    /// An animation's frame: its size (the RGBA pixels follow, as a page's) and how long it
    /// shows, in milliseconds.
    case frame(width: Int, height: Int, delay: Int)
    case text(String)
    case printable(PrintableDocument)
    case failed(RenderProblem)
    /// What one search request found (``SearchChunk``).
    case found(SearchChunk)
    /// A page's text with its boxes (``PageText``).
    case pageText(PageText)
    /// An archive entry's bytes.
    case entry([UInt8])
    /// A video or audio file's facts.
    case media(MediaInfo)
    /// A PDF's form.
    case form(FormFacts)
    /// A changed document as saved (the update's bytes).
    case saved(PDFUpdate)

    private enum Tag: Int64 { case opened = 10, page = 11, text = 12, failed = 13, printable = 14, found = 15, pageText = 16, entry = 17, media = 18, form = 19, saved = 20, frame = 21 }

    package var frame: [UInt8] {
        var writer = WireWriter()
        switch self {
        case .opened(let facts):
            writer.integer(Tag.opened.rawValue)
            facts.write(to: &writer)
        case .page(let width, let height):
            writer.integer(Tag.page.rawValue)
            writer.integer(Int64(width))
            writer.integer(Int64(height))
        case .frame(let width, let height, let delay):
            writer.integer(Tag.frame.rawValue)
            writer.integer(Int64(width))
            writer.integer(Int64(height))
            writer.integer(Int64(delay))
        case .text(let text):
            writer.integer(Tag.text.rawValue)
            writer.string(text)
        case .printable(let document):
            writer.integer(Tag.printable.rawValue)
            document.write(to: &writer)
        case .failed(let problem):
            writer.integer(Tag.failed.rawValue)
            problem.write(to: &writer)
        case .found(let chunk):
            writer.integer(Tag.found.rawValue)
            chunk.write(to: &writer)
        case .pageText(let text):
            writer.integer(Tag.pageText.rawValue)
            text.write(to: &writer)
        case .entry(let bytes):
            writer.integer(Tag.entry.rawValue)
            writer.data(bytes)
        case .media(let info):
            writer.integer(Tag.media.rawValue)
            info.write(to: &writer)
        case .form(let facts):
            writer.integer(Tag.form.rawValue)
            facts.write(to: &writer)
        case .saved(let update):
            writer.integer(Tag.saved.rawValue)
            update.write(to: &writer)
        }
        return writer.frame
    }

    package init(payload: [UInt8]) throws(WireReader.Malformed) {
        var reader = WireReader(payload)
        switch Tag(rawValue: try reader.integer()) {
        case .opened: self = .opened(try DocumentFacts(reading: &reader))
        case .page:
            let width = try reader.integer(), height = try reader.integer()
            guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { throw WireReader.Malformed() }
            self = .page(width: Int(width), height: Int(height))
        case .frame:
            let width = try reader.integer(), height = try reader.integer(), delay = try reader.integer()
            guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, delay >= 0, delay < 1 << 31 else { throw WireReader.Malformed() }
            self = .frame(width: Int(width), height: Int(height), delay: Int(delay))
        case .text: self = .text(try reader.string())
        case .failed: self = .failed(try RenderProblem(reading: &reader))
        case .printable: self = .printable(try PrintableDocument(reading: &reader))
        case .found: self = .found(try SearchChunk(reading: &reader))
        case .pageText: self = .pageText(try PageText(reading: &reader))
        case .entry: self = .entry(try reader.data())
        case .media: self = .media(try MediaInfo(reading: &reader))
        case .form: self = .form(try FormFacts(reading: &reader))
        case .saved: self = .saved(try PDFUpdate(reading: &reader))
        case nil: throw WireReader.Malformed()
        }
    }
}
