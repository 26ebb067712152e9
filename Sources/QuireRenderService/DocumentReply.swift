import QuireRender
import QuireSystem

/// The render service's answer to a ``RenderRequest``. A page's pixels do not go in the frame:
/// the session answers ``rendered(_:delay:)``, whose frame (`page`, or `frame` for an animation's
/// frame) announces their size, and `width × height × 4` bytes of RGBA follow it on the pipe
/// (``send(to:)``), so the viewer reads them straight into the page's own memory; read back
/// from the pipe, that header is ``page(width:height:)`` or ``frame(width:height:delay:)``.
package enum DocumentReply: Sendable {
    case opened(OpenedDocument)
    /// Pixels as the session drew them (a page, a composed side), with an animation frame's
    /// delay in milliseconds.
    case rendered(RenderedImage, delay: Int?)
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
    /// A document written as a file (an export's PDF or SVG).
    case exported([UInt8])
    /// A batch's thumbnails of one file, or why there are none (its own frame, tags 0 and 1).
    case thumbnails(ThumbnailReply)
    /// What the info card says of the content.
    case info(DocumentInfo.Content)

    private enum Tag: Int64 { case opened = 10, page = 11, text = 12, failed = 13, printable = 14, found = 15, pageText = 16, entry = 17, media = 18, form = 19, saved = 20, frame = 21, exported = 22, info = 23 }

    package var frame: [UInt8] {
        var writer = WireWriter()
        switch self {
        case .opened(let facts):
            writer.integer(Tag.opened.rawValue)
            facts.write(to: &writer)
        case .thumbnails(let reply):
            return reply.frame
        case .rendered(let image, nil):
            return DocumentReply.page(width: image.width, height: image.height).frame
        case .rendered(let image, let delay?):
            return DocumentReply.frame(width: image.width, height: image.height, delay: delay).frame
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
        case .exported(let bytes):
            writer.integer(Tag.exported.rawValue)
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
        case .info(let content):
            writer.integer(Tag.info.rawValue)
            content.write(to: &writer)
        }
        return writer.frame
    }

    /// Writes the reply to the pipe: its frame, and the pixels after it. False when the pipe
    /// is broken.
    package func send(to output: FileDescriptor) -> Bool {
        let frame = frame
        // A reply the pipe cannot carry (its reader refuses frames past the maximum) is a
        // problem of its own, not a broken exchange.
        guard frame.count - 4 <= WireIO.maximumFrame else {
            return DocumentReply.failed(RenderProblem(.limitExceeded, "the answer is larger than \(WireIO.maximumFrame >> 20) MiB")).send(to: output)
        }
        guard WireIO.writeAll(output, frame) else { return false }
        if case .rendered(let image, _) = self { return WireIO.writeAll(output, image.pixels) }
        return true
    }

    package init(payload: [UInt8]) throws(WireReader.Malformed) {
        var reader = WireReader(payload)
        let tag = try reader.integer()
        if tag == 0 || tag == 1 {
            self = .thumbnails(try ThumbnailReply(payload: payload))
            return
        }
        switch Tag(rawValue: tag) {
        case .opened: self = .opened(try OpenedDocument(reading: &reader))
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
        case .exported: self = .exported(try reader.data())
        case .media: self = .media(try MediaInfo(reading: &reader))
        case .form: self = .form(try FormFacts(reading: &reader))
        case .saved: self = .saved(try PDFUpdate(reading: &reader))
        case .info: self = .info(try DocumentInfo.Content(reading: &reader))
        case nil: throw WireReader.Malformed()
        }
    }
}
