import Testing
@testable import QuireThumbnails
import QuireRenderService
import QuireTypes
import QuireRender
import QuireSheets

/// The render service's pipe protocol carries raw bytes unchanged and rejects malformed frames.
@Suite struct WorkerProtocolTests {
    static func payload(_ frame: [UInt8]) -> [UInt8] {
        let length = Int(frame[0]) | Int(frame[1]) << 8 | Int(frame[2]) << 16 | Int(frame[3]) << 24
        #expect(length == frame.count - 4)
        return Array(frame.dropFirst(4))
    }

    @Test func requestsKeepNewlinesAndInvalidUTF8() throws {
        let path: [UInt8] = Array("/tmp/a\nb".utf8) + [0xFF, 0x00, 0x2D]
        let request = ThumbnailRequest(path: path, uri: "file:///tmp/a%0Ab%FF", sizes: [128, 1024], maximumFileSize: 1 << 40)
        // A thumbnail request: the kind first, then the request.
        let payload = Self.payload(RenderRequest.thumbnail(request).frame)
        #expect(payload.prefix(8) == [1, 0, 0, 0, 0, 0, 0, 0], "kind 1: thumbnail")
        var reader = WireReader(payload)
        _ = try reader.integer()
        guard case .thumbnail(let back) = try RenderRequest(.thumbnail, reading: &reader) else {
            Issue.record("not a thumbnail request")
            return
        }
        #expect(back.path == path)
        #expect(back.uri == request.uri && back.sizes == [128, 1024] && back.maximumFileSize == 1 << 40)
    }

    @Test func responsesRoundTrip() throws {
        let rendered = ThumbnailReply.rendered(modificationTime: 1_700_000_000, size: 42, mimeType: "application/pdf",
                                               pngBySize: [256: [1, 2, 3], 128: []])
        guard case let .rendered(mtime, size, mime, pngs) = try ThumbnailReply(payload: Self.payload(rendered.frame)) else {
            Issue.record("not rendered")
            return
        }
        #expect(mtime == 1_700_000_000 && size == 42 && mime == "application/pdf" && pngs == [256: [1, 2, 3], 128: []])
        let failed = ThumbnailReply.failed(ThumbnailFailure(.init(.damaged), "bad\nthing"), modificationTime: -1, size: -1)
        guard case let .failed(failure, _, _) = try ThumbnailReply(payload: Self.payload(failed.frame)) else {
            Issue.record("not failed")
            return
        }
        #expect(failure.kind.rawValue == "damaged" && failure.reason == "bad\nthing" && failure.remedy == nil)
        let limited = ThumbnailReply.failed(ThumbnailFailure(.init(.limitExceeded), "big", remedy: .raise(.pixels)),
                                            modificationTime: 1, size: 2)
        guard case let .failed(back, mtime2, size2) = try ThumbnailReply(payload: Self.payload(limited.frame)) else {
            Issue.record("not failed")
            return
        }
        #expect(back == ThumbnailFailure(.init(.limitExceeded), "big", remedy: .raise(.pixels)) && mtime2 == 1 && size2 == 2)
        #expect(WorkerHandshake.isValid(Self.payload(WorkerHandshake.frame)))
    }

    @Test func malformedPayloadsAreRejected() {
        var short = WireReader([1, 2, 3])
        #expect(throws: WireReader.Malformed.self) { try RenderRequest(.thumbnail, reading: &short) }
        #expect(throws: WireReader.Malformed.self) { try ThumbnailReply(payload: [9, 0, 0, 0, 0, 0, 0, 0]) }
        var writer = WireWriter()
        writer.integer(1 << 40)  // a byte string claiming a terabyte
        var huge = WireReader(writer.bytes)
        #expect(throws: WireReader.Malformed.self) { try RenderRequest(.thumbnail, reading: &huge) }
        #expect(!WorkerHandshake.isValid([]))
    }

    @Test func documentRequestsAndRepliesRoundTrip() throws {
        let path: [UInt8] = Array("/tmp/x\ny".utf8) + [0xFE]
        let request = DocumentRequest(path: DocumentPath(bytes: path), password: "pa ss", maximumFileSize: 99, layout: .paper)
        let payload = Self.payload(RenderRequest.open(request).frame)
        #expect(payload.prefix(8) == [2, 0, 0, 0, 0, 0, 0, 0], "kind 2: open")
        let facts = OpenedDocument(mimeType: "application/pdf", pageSizes: [PageSize(width: 595, height: 842), PageSize(width: 10, height: 20)],
                                  isRaster: false, text: TextContent(lines: ["a", "b\u{2400}"], isTruncated: true),
                                  title: "T", author: nil, imageWidth: 3, imageHeight: nil, embeddedPreviewName: "x.png")
        guard case .opened(let back) = try DocumentReply(payload: Self.payload(DocumentReply.opened(facts).frame)) else {
            Issue.record("not opened")
            return
        }
        #expect(back == facts)
        // Whether a PDF may be marked up, and why not, travel with its facts (issue 36).
        for markup in [OpenedDocument.MarkupPermission.allowed, .forbidden("the PDF's permissions do not allow adding annotations")] {
            var marked = facts
            marked.markup = markup
            guard case .opened(let again) = try DocumentReply(payload: Self.payload(DocumentReply.opened(marked).frame)) else {
                Issue.record("not opened")
                return
            }
            #expect(again.markup == markup && again == marked)
        }
        guard case .failed(let problem) = try DocumentReply(payload: Self.payload(
            DocumentReply.failed(RenderProblem(.wrongPassword, "wrong password", mimeType: "application/pdf")).frame)) else {
            Issue.record("not failed")
            return
        }
        #expect(problem.kind == .wrongPassword && problem.mimeType == "application/pdf")
        // A page size of 0 or 2^16 and a count of a billion pages are refused before anything is made.
        var writer = WireWriter()
        writer.integer(11)
        writer.integer(0)
        writer.integer(10)
        #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: writer.bytes) }
        var pages = WireWriter()
        pages.integer(10)
        pages.string("application/pdf")
        pages.integer(1 << 30)
        #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: pages.bytes) }
    }

    /// An animation's facts, the frame request and its reply go over the wire and back; a
    /// frame of size 0 or a negative delay is refused.
    @Test func animationFactsAndFramesRoundTrip() throws {
        var facts = OpenedDocument(mimeType: "image/gif", pageSizes: [PageSize(width: 60, height: 40)], isRaster: true)
        facts.animation = AnimationInfo(frames: 48, duration: 1.92, loops: nil, isCut: true)
        facts.animationRefusal = "too many frames to play (x)"
        guard case .opened(let back) = try DocumentReply(payload: Self.payload(DocumentReply.opened(facts).frame)) else {
            Issue.record("not opened")
            return
        }
        #expect(back == facts && back.animation?.loops == nil && back.animation?.isCut == true)
        let request = PageRequest(document: DocumentRequest(path: DocumentPath("/a.gif")), page: 7, width: 64, height: 32)
        #expect(Self.payload(RenderRequest.frame(request).frame).prefix(8) == [15, 0, 0, 0, 0, 0, 0, 0], "kind 15: frame")
        guard case .frame(let width, let height, let delay) = try DocumentReply(payload: Self.payload(
            DocumentReply.frame(width: 64, height: 32, delay: 40).frame)) else {
            Issue.record("not a frame")
            return
        }
        #expect(width == 64 && height == 32 && delay == 40)
        var writer = WireWriter()
        writer.integer(21)
        writer.integer(64)
        writer.integer(32)
        writer.integer(-1)
        #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: writer.bytes) }
    }

    /// A book's table of contents goes over the wire and back (an entry going nowhere stays
    /// so); a level outside 1…16 is refused.
    /// A composed job's sheet options go to the worker as their `lp -o` words and come back
    /// the same, every choice at every value; a word the worker does not know is refused.
    @Test func sheetRequestsRoundTripEveryChoice() throws {
        func roundTrip(_ request: SheetRequest) throws -> SheetRequest {
            var writer = WireWriter()
            request.write(to: &writer)
            var reader = WireReader(writer.bytes)
            return try SheetRequest(reading: &reader)
        }
        for choice in SheetOptions.choices {
            for index in choice.values.indices {
                var options = SheetOptions()
                options.paper = PaperSize.named("A5")
                options.margins = Margins(top: 1, bottom: 2, left: 3, right: 4)
                options.duplex = index % 2 == 1
                choice.choose(index, in: &options)
                let request = SheetRequest(pages: [3, 1, 2], options: options)
                #expect(try roundTrip(request) == request, "\(choice.name) \(choice.values[index].word)")
            }
        }
        var odd = SheetOptions()
        odd.scaling = .percent(37)
        #expect(try roundTrip(SheetRequest(pages: [1], options: odd)).options.scaling == .percent(37))
        var writer = WireWriter()
        SheetRequest(pages: [1], options: SheetOptions()).write(to: &writer)
        var bytes = writer.bytes
        bytes.removeLast(8)
        var words = WireWriter()
        words.integer(1)
        words.string("number-up")
        words.string("3")
        var reader = WireReader(bytes + words.bytes)
        #expect(throws: WireReader.Malformed.self) { try SheetRequest(reading: &reader) }
    }

    /// Every request the session answers goes over the wire as its kind and fields and is read
    /// back as the same request (the worker's loop decodes what a client encoded); a frame
    /// with bytes left over, or a composed side without its sheet, is refused.
    @Test func everyRenderRequestRoundTrips() throws {
        let document = DocumentRequest(path: DocumentPath("/tmp/a b.pdf"), password: "pw", maximumFileSize: 77, layout: .paper)
        let page = PageRequest(document: document, page: 2, width: 300, height: 200)
        var sided = page
        sided.sheet = SheetRequest(pages: [1, 2], options: SheetOptions())
        let changes = DocumentChanges(formValues: [.init(name: "n", value: "v")], turns: [0: 90])
        var uncounted = document
        uncounted.drawsOnly = true
        uncounted.firstPageOnly = true
        uncounted.firstPageFirst = true
        uncounted.developRaw = true
        let requests: [RenderRequest] = [
            .thumbnail(ThumbnailRequest(path: Array("/tmp/a b.pdf".utf8), uri: "file:///tmp/a%20b.pdf", sizes: [256], maximumFileSize: 77)),
            .open(document), .open(uncounted), .page(page), .frame(page), .text(page), .printable(document),
            .search(SearchRequest(document: document, query: "q", from: 1, to: 5, budgetMilliseconds: 80, maximumMatches: 9)),
            .textLayout(page), .composedSide(sided), .composedJob(document, SheetRequest(pages: [2], options: SheetOptions())),
            .extractEntry(document, entry: "dir/x.txt"), .officePDF(document), .mediaInfo(document), .formFields(document),
            .saveChanges(document, changes), .export(document, format: .pdf, pages: [0, 4, 2]), .export(document, format: .svg, pages: [3]),
            .export(document, format: .pdf, pages: nil), .contactSheet(document, pages: [0, 1, 2], cellSize: 200),
            .info(document, showLocation: false), .info(document, showLocation: true),
        ]
        #expect(Set(requests.map(\.kind)) == Set(RenderRequestKind.allCases), "one case per kind")
        for request in requests {
            let payload = Self.payload(request.frame)
            var reader = WireReader(payload)
            #expect(try reader.integer() == request.kind.rawValue)
            let back = try #require(try RenderRequest(request.kind, reading: &reader), "\(request.kind)")
            #expect(back.kind == request.kind && back.document == request.document && back.frame == request.frame, "\(request.kind)")
            var longer = WireReader(payload + [0])
            _ = try longer.integer()
            #expect(throws: WireReader.Malformed.self) { try RenderRequest(request.kind, reading: &longer) }
        }
        var unsided = WireReader(Self.payload(RenderRequest.page(page).frame))
        _ = try unsided.integer()
        #expect(throws: WireReader.Malformed.self) { try RenderRequest(.composedSide, reading: &unsided) }
    }

    /// The info card's content goes over the wire and back: a Markdown file's headings (a tuple
    /// in memory), a video's cover as its presence only, a password problem with its remedy; a
    /// reply whose JSON is cut, or whose problem names no kind, is refused.
    @Test func infoContentRoundTrips() throws {
        var content = DocumentInfo.Content()
        var markdown = MarkdownText()
        markdown.title = "Title"
        markdown.headings = [(level: 1, text: "Title"), (level: 2, text: "Två")]
        markdown.wordCount = 12
        content.markdown = markdown
        var media = MediaInfo()
        media.duration = 6.5
        media.frameRate = .infinity
        media.cover = [1, 2, 3]
        content.media = media
        content.problem = DocumentError(kind: .passwordRequired, path: DocumentPath("/x.pdf"), reason: "needs a password", remedy: .password)
        let frame = DocumentReply.info(content).frame
        guard case .info(let back) = try DocumentReply(payload: Self.payload(frame)) else {
            Issue.record("not info")
            return
        }
        #expect(back.markdown?.headings.map(\.text) == ["Title", "Två"] && back.markdown?.headings.map(\.level) == [1, 2])
        #expect(back.markdown?.wordCount == 12 && back.markdown?.title == "Title")
        #expect(back.media?.duration == 6.5 && back.media?.cover == [], "the cover travels as its presence")
        #expect(back.media?.frameRate == .infinity, "a number JSON has no word for is kept, not the whole card lost")
        #expect(back.problem?.kind == .passwordRequired && back.problem?.reason == "needs a password" && back.problem?.remedy == .password)
        #expect(back.problem?.path == nil, "the client puts its own path back")
        #expect(back.pdf == nil && back.archive == nil)
        var cut = WireWriter()
        cut.integer(23)
        cut.data(Array(#"{"markdown":{"#.utf8))
        cut.integer(0)
        #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: Self.payload(cut.frame)) }
        var kindless = WireWriter()
        kindless.integer(23)
        kindless.data(Array("{}".utf8))
        kindless.integer(1)
        kindless.string("no-such-kind")
        kindless.string("x")
        kindless.integer(0)
        #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: Self.payload(kindless.frame)) }
        var strangeRemedy = WireWriter()
        strangeRemedy.integer(23)
        strangeRemedy.data(Array("{}".utf8))
        strangeRemedy.integer(1)
        strangeRemedy.string("password-required")
        strangeRemedy.string("x")
        strangeRemedy.integer(7)
        #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: Self.payload(strangeRemedy.frame)) }
    }

    @Test func bookContentsRoundTrip() throws {
        var facts = OpenedDocument(mimeType: "application/epub+zip", pageSizes: [], isRaster: false, text: TextContent(lines: ["One", "Two"], isTruncated: false))
        facts.contents = TableOfContents(entries: [.init(level: 1, title: "One", line: 0), .init(level: 2, title: "Två — “2”", line: 1),
                                                   .init(level: 1, title: "Elsewhere", line: nil)], isFromHeadings: true)
        guard case .opened(let back) = try DocumentReply(payload: Self.payload(DocumentReply.opened(facts).frame)) else {
            Issue.record("not opened")
            return
        }
        #expect(back == facts && back.contents.entries.map(\.line) == [0, 1, nil] && back.contents.isFromHeadings)
        for level in [0, TableOfContents.maximumLevel + 1] {
            var wrong = facts
            wrong.contents.entries[1].level = level
            #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: Self.payload(DocumentReply.opened(wrong).frame)) }
        }
    }

    /// A Markdown file's styles and its pictures' pixels go over the wire and back; a picture
    /// whose pixels do not match its size, or one on a line that is not a picture, is refused.
    @Test func markdownPicturesRoundTrip() throws {
        var facts = OpenedDocument(mimeType: "text/markdown", pageSizes: [], isRaster: false, text: TextContent(lines: ["Title", "[image: x — x.png]"], isTruncated: false))
        var markdown = MarkdownText()
        markdown.lines = [MarkdownText.Line(text: "", kind: .heading, level: 1, runs: [MarkdownText.Run(start: 0, length: 5, style: [.code, .syntax], colour: 2)]),
                          MarkdownText.Line(text: "", kind: .image)]
        facts.markdown = markdown
        facts.markdownPictures = [OpenedDocument.Picture(line: 1, image: RenderedImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255]))]
        guard case .opened(let back) = try DocumentReply(payload: Self.payload(DocumentReply.opened(facts).frame)) else {
            Issue.record("not opened")
            return
        }
        #expect(back == facts && back.markdownPictures.first?.image.pixels == [255, 0, 0, 255, 0, 0, 255, 255])
        #expect(back.markdown?.lines.first?.runs.first?.style == [.code, .syntax])
        for bad in [OpenedDocument.Picture(line: 0, image: RenderedImage(width: 1, height: 1, pixels: [1, 2, 3, 4])),
                    OpenedDocument.Picture(line: 1, image: RenderedImage(width: OpenedDocument.pictureBox.width + 1, height: 1,
                                                                         pixels: [UInt8](repeating: 0, count: (OpenedDocument.pictureBox.width + 1) * 4)))] {
            var wrong = facts
            wrong.markdownPictures = [bad]
            #expect(throws: WireReader.Malformed.self) { try DocumentReply(payload: Self.payload(DocumentReply.opened(wrong).frame)) }
        }
    }

    @Test func theWorkerCommandLineIsReadBackAsWritten() {
        var limits = WorkerLimits(memoryBytes: 1 << 30, cpuSecondsPerRequest: 7)
        limits.memoryBytes = 123_456
        var render = RenderLimits.standard
        render.maximumImagePixels = 42
        let command = WorkerCommand(executable: "/usr/bin/quire", renderLimits: render, limits: limits)
        #expect(command.arguments.first == WorkerCommand.subcommand)
        let parsed = WorkerCommand.parse(command.arguments.dropFirst().map { Array($0.utf8) })
        #expect(parsed?.render == render && parsed?.worker == limits)
        #expect(WorkerCommand.parse([Array("--max-pixels".utf8)]) == nil, "an option without its value")
        #expect(WorkerCommand.parse([Array("--max-pixels".utf8), Array("1".utf8), Array("--max-pixels".utf8), Array("2".utf8)]) == nil)
        #expect(WorkerCommand.parse([Array("--shell".utf8), Array("1".utf8)]) == nil)
        #expect(WorkerCommand.parse([Array("--max-pixels".utf8), Array("0".utf8)]) == nil, "a renderer's limit of 0")
        #expect(WorkerCommand.parse([Array("--memory-limit".utf8), Array("-5".utf8)]) == nil)
        #expect(WorkerCommand.parse([Array("file.pdf".utf8)]) == nil, "an operand")
        #expect(WorkerCommand.parse([])?.render == .standard, "no options: the standard limits")
        #expect(command.argv(sandbox: WorkerSandbox.disabled("test")) == ["/usr/bin/quire"] + command.arguments)
    }
}
