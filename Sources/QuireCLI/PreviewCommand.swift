#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import FoundationEssentials
import Quire
import QuireRenderService
import QuireTerminalViewer
import QuireIntegration

struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Render a preview of a file: a page as PNG, PDF or SVG, a contact sheet, or an image in the terminal.",
        discussion: """
            Works for PDF, PostScript/EPS, SVG, images (PNG, JPEG, GIF, WebP, TIFF, BMP, ICO; camera RAW: the embedded preview), \
            text and source code (paginated on A4), office documents (every page through \
            LibreOffice when it is installed, else the preview image OpenDocument, Office Open \
            XML and iWork files carry), EPUB books (the cover, then the chapters), comic books (CBZ, CBR, CB7, CBT: every image a page), DjVu (every page; its text layer for find), e-mail messages (.eml, mbox: the headers, the text and the attachment list), fonts (a specimen per face), \
            video (a poster frame, then frames across the duration), audio (its cover, else a \
            card of its tags and a waveform) and archives (their listing).

            Without -o, on a terminal the page is shown inline (kitty graphics, iTerm2 inline \
            images, sixel, or Unicode half-block colour cells; QUIRE_GRAPHICS=kitty|iterm|sixel|blocks \
            overrides the guess); when standard output is a pipe it receives the PNG (or PDF/SVG) \
            bytes. Several pages with -o OUT.png write OUT-1.png, OUT-2.png, … (the number \
            zero-padded to the page count's digits: OUT-01.png in a 12-page document; --format \
            pdf writes one PDF with all the selected pages). Output files are written \
            to a temporary file and renamed: a failure leaves nothing behind. -o - writes to \
            standard output; a symbolic link is followed, a device or FIFO written to (never \
            replaced), and a directory or the input itself refused before anything is written.

            Examples:
              quire preview --info photo.jpg                 # info card above the image
              quire preview notes.txt --page 2               # text is paginated on A4
              quire preview report.pdf --pages 1-3 --width 800 -o page.png   # page-01.png ... page-03.png (12 pages)
              quire preview report.pdf --sheet -o sheet.png  # contact sheet with page numbers
              quire preview notes.txt --format pdf -o notes.pdf
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, pdf, svg
    }

    @Argument(help: ArgumentHelp("The file to preview.", valueName: "file"))
    var file: String

    @Option(name: .long, help: ArgumentHelp("Page to render (from 1).", valueName: "n"))
    var page: Int?

    @Option(name: .long, help: ArgumentHelp("Pages to render, e.g. 1-3,5 or all.", valueName: "range"))
    var pages: String?

    @Option(name: .long, help: ArgumentHelp("Fit each page in a box of W×H pixels, e.g. 800x600.", valueName: "WxH"))
    var size: String?

    @Option(name: .long, help: ArgumentHelp("Width in pixels (height follows the aspect ratio).", valueName: "w"))
    var width: Int?

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "png|pdf|svg"))
    var format: Format = .png

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (several pages: numbered files).", valueName: "out"))
    var output: String?

    @Flag(name: .long, help: "One contact-sheet image of page thumbnails with page numbers.")
    var sheet = false

    @Option(name: .long, help: ArgumentHelp(
        "Draw inline in a box of COLUMNSxROWS terminal cells even when standard output is a pipe (file-manager preview panes: ranger, lf, yazi); text files, SQLite databases, JSON, Markdown and notebooks are shown as their first lines of text, tables (CSV, TSV) as their header and first rows.",
        valueName: "COLSxROWS"))
    var cells: String?

    @Flag(name: .long, help: "Print the info card above the inline preview.")
    var info = false

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs.", valueName: "password"))
    var password: String?

    @OptionGroup var spreadsheet: SpreadsheetTextOption

    @Flag(name: .long, help: "Camera RAW photos: develop the sensor data at full size (slower) instead of showing the preview the camera embedded; other files are drawn as always.")
    var full = false

    @Flag(name: .long, help: "Open the preview in the desktop's default image viewer (Quick Look for file managers).")
    var open = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Give up after this many seconds (exit status 75); 0 waits forever (default 120; env QUIRE_TIMEOUT).", valueName: "seconds"))
    var timeoutOption: Int?

    @OptionGroup(title: "Limits") var limits: LimitOptions

    var timeout: Int { (try? Watchdog.seconds(timeoutOption, default: 120)) ?? 120 }

    func validate() throws {
        _ = try Watchdog.seconds(timeoutOption, default: 120)
        if page != nil && pages != nil { throw ValidationError("Give --page or --pages, not both.") }
        if size != nil && width != nil { throw ValidationError("Give --size or --width, not both.") }
        if let page, page < 1 { throw ValidationError("Pages count from 1.") }
        if let width, width < 1 || width > 32767 { throw ValidationError("--width must be between 1 and 32767.") }
        if size != nil && parsedBox == nil { throw ValidationError("--size takes WIDTHxHEIGHT, e.g. 800x600.") }
        if open && output != nil { throw ValidationError("--open shows the preview in a viewer; it cannot be combined with -o.") }
        if open && format != .png { throw ValidationError("--open shows a PNG preview; it cannot be combined with --format \(format.rawValue).") }
        if sheet && format != .png { throw ValidationError("--sheet writes a PNG image; it cannot be combined with --format \(format.rawValue).") }
        if let cells {
            guard PreviewCells(cells) != nil else { throw ValidationError("--cells takes COLUMNSxROWS, e.g. 80x24.") }
            if output != nil || open || format != .png || size != nil || width != nil {
                throw ValidationError("--cells draws inline; it cannot be combined with -o, --open, --format, --size or --width.")
            }
        }
    }

    var parsedBox: (Int, Int)? {
        guard let size else { return nil }
        let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...32767).contains(parts[0]), (1...32767).contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }

    func run() async throws {
        let path = RawArguments.path(file)
        // -o - is standard output, as no -o with standard output a pipe.
        let toStandardOutput = output == "-"
        let outputPath = toStandardOutput ? nil : output.map(RawArguments.path)
        let previewCells = cells.flatMap(PreviewCells.init)
        if toStandardOutput && Terminal.isTerminal(STDOUT_FILENO) {
            throw ValidationError("Not writing \(format.rawValue.uppercased()) data to a terminal: give -o FILE or pipe the output.")
        }
        let toTerminal = outputPath == nil && !toStandardOutput && (previewCells != nil || Terminal.isTerminal(STDOUT_FILENO))
        // Checked before any work: a directory or the input itself is refused, nothing touched.
        if let outputPath {
            do { try OutputFile.check(outputPath, inputs: [path]) } catch { throw ExitStatus.report(error) ?? error }
        }
        try spreadsheet.requireOffice()
        try limits.applyMemoryLimit()
        Watchdog.arm(seconds: timeout, path: path)
        do {
            let document = try Document(path: path, maximumFileSize: try limits.maximumFileSize(),
                                        limits: try limits.renderLimits(), csvAsSpreadsheet: spreadsheet.csvAsSpreadsheet, interpreters: CommandInterpreters.forDocuments)
            // The rows the card takes on the terminal: the picture below it is made to fit what is left.
            var cardRows = 0
            if info {
                let card = InfoCardFormatter.card(try document.info(password: password), styled: toTerminal && Terminal.stylesStandardOutput)
                if outputPath == nil && !toTerminal {
                    Terminal.errorText(card)
                } else {
                    Terminal.out(card + "\n")
                    cardRows = card.split(separator: "\n", omittingEmptySubsequences: false).count + 1
                }
            }
            if let previewCells, document.contentType.family == .text, !sheet {
                try previewCells.showText(of: document)
                return
            }
            // Page 1 alone as a picture: an office document's page 1 is painted from LibreOffice's
            // layout, without exporting every page (the PDF and the sheet need them all).
            let pageOneOnly = format == .png && !sheet && pages == nil && (page == nil || page == 1)
            // Drawn by the render service in this process, as a viewer's worker draws (data
            // and notes are opened as their lines when they go to the terminal as text).
            let renderer = try PreviewPages(document, password: password, layout: previewCells != nil && !sheet ? .view : .paper,
                                            firstPageOnly: pageOneOnly, developRaw: full)
            // Data and notes with a text form (a database, JSON, Markdown, a notebook): text.
            if let previewCells, let lines = renderer.lines, !sheet {
                try previewCells.showLines(lines)
                return
            }
            let selected: [Int]
            if let page {
                guard page >= 1, renderer.hasPage(page - 1) else {
                    throw DocumentUsageError.noPage(page, of: renderer.pageCount, path: "\(path)")
                }
                selected = [page - 1]
            } else if let pages {
                selected = try PageSelection.parse(pages, pageCount: renderer.pageCount, path: "\(path)")
            } else if format == .pdf || sheet {
                selected = Array(0..<renderer.pageCount)
            } else {
                selected = [0]
            }
            try document.limits.checkPageCount(selected.count, path: path)
            if open {
                try openInViewer(renderer: renderer, pages: selected, name: path.lastComponentBytes)
                return
            }
            switch format {
            case .pdf:
                try emit([try renderer.pdfData(pages: selected)], pages: [selected[0]], renderer: renderer,
                         output: outputPath, toTerminal: toTerminal, extension: "pdf")
            case .svg:
                try emit(try selected.map { (page) throws(DocumentError) in try renderer.svgData(page: page) },
                         pages: selected, renderer: renderer, output: outputPath, toTerminal: toTerminal, extension: "svg")
            case .png:
                try await renderPNG(renderer: renderer, pages: selected, output: outputPath, toTerminal: toTerminal, reservedRows: cardRows)
            }
        } catch let error as PNGEncoder.EncodingError {
            Terminal.error("\(path): \(error.description)")
            throw ExitStatus.software.exitCode
        } catch {
            throw ExitStatus.report(error) ?? error
        }
    }

    /// Renders the page (or the contact sheet) to a PNG in a private directory and hands it to
    /// the default image viewer. Previews older than a day are removed on the way.
    private func openInViewer(renderer: PreviewPages, pages selected: [Int], name: [UInt8]) throws {
        let box = parsedBox ?? (width ?? 1600, width ?? 1600)
        let image = sheet
            ? try renderer.contactSheet(pages: selected, cellSize: 240)
            : try renderer.render(page: selected[0], size: .fit(width: box.0, height: box.1), allowUpscaling: false)
        let directory = try PreviewDirectory.prepare()
        let safeName = String(decoding: name, as: UTF8.self).unicodeScalars
            .map { $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0) ? String($0) : "_" }
            .joined().prefix(80)
        let file = directory + "/\(safeName)-page-\(selected[0] + 1)-\(getpid()).png"
        let png = try PNGEncoder.encode(image)
        Watchdog.settle()
        try OutputFile.write(png, to: DocumentPath(file), permissions: 0o600)
        try DefaultApplication.open(DocumentPath(file))
        Terminal.out("opened \(file)\n")
    }

    private func renderPNG(renderer: PreviewPages, pages selected: [Int], output: DocumentPath?, toTerminal: Bool,
                           reservedRows: Int = 0) async throws {
        let method = TerminalGraphics.detect()
        var renderSize: RenderSize
        var upscale = true
        if let width {
            renderSize = .width(width)
        } else if let (w, h) = parsedBox {
            renderSize = .fit(width: w, height: h)
        } else if let previewCells = cells.flatMap(PreviewCells.init) {
            let box = previewCells.box(for: method)
            renderSize = .fit(width: box.width, height: box.height)
            upscale = false
        } else if toTerminal {
            let box = TerminalGraphics.box(for: method, reservingRows: reservedRows)
            renderSize = .fit(width: box.width, height: box.height)
            upscale = false
        } else {
            renderSize = .natural
        }
        if sheet {
            var cell = 200
            if let width { cell = width } else if let (w, h) = parsedBox { cell = max(w, h) }
            var image = try renderer.contactSheet(pages: selected, cellSize: cell)
            if toTerminal {
                // Shrink the sheet to the terminal.
                let box = cells.flatMap(PreviewCells.init)?.box(for: method) ?? TerminalGraphics.box(for: method)
                if image.width > box.width || image.height > box.height {
                    let sheetImage = image
                    image = try Self.scaled(sheetImage, toFit: box)
                }
                try Terminal.outputData(try TerminalGraphics.encode(image, as: method))
                return
            }
            try emit([try PNGEncoder.encode(image)], pages: [0], renderer: renderer, output: output,
                     toTerminal: false, extension: "png")
            return
        }
        if toTerminal {
            for (index, page) in selected.enumerated() {
                if selected.count > 1 {
                    Terminal.out((index > 0 ? "\n" : "") + Terminal.dim("Page \(page + 1) of \(renderer.pageCount)", enabled: Terminal.stylesStandardOutput) + "\n")
                }
                let image = try renderer.render(page: page, size: renderSize, allowUpscaling: upscale)
                try Terminal.outputData(try TerminalGraphics.encode(image, as: method))
            }
            return
        }
        var files: [[UInt8]] = []
        for page in selected {
            files.append(try PNGEncoder.encode(renderer.render(page: page, size: renderSize, allowUpscaling: upscale)))
        }
        try emit(files, pages: selected, renderer: renderer, output: output, toTerminal: false, extension: "png")
    }

    /// Nearest-neighbour shrink of a composed sheet for terminal display.
    static func scaled(_ image: RenderedImage, toFit box: (width: Int, height: Int)) throws -> RenderedImage {
        let scale = min(Double(box.width) / Double(image.width), Double(box.height) / Double(image.height))
        let w = max(1, Int(Double(image.width) * scale)), h = max(1, Int(Double(image.height) * scale))
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let sx = min(image.width - 1, Int(Double(x) / scale)), sy = min(image.height - 1, Int(Double(y) / scale))
                let from = (sy * image.width + sx) * 4, to = (y * w + x) * 4
                for c in 0..<4 { pixels[to + c] = image.pixels[from + c] }
            }
        }
        return RenderedImage(width: w, height: h, pixels: pixels)
    }

    /// Writes one file per entry of `files`: to OUTPUT (numbered when several), or to
    /// standard output when it is not a terminal.
    private func emit(_ files: [[UInt8]], pages: [Int], renderer: PreviewPages, output: DocumentPath?,
                      toTerminal: Bool, extension ext: String) throws {
        guard let output else {
            if toTerminal {
                throw ValidationError("Not writing \(ext.uppercased()) data to a terminal: give -o FILE or pipe the output.")
            }
            if files.count > 1 {
                throw ValidationError("Several pages cannot go to standard output as one \(ext.uppercased()): give -o FILE (numbered files) or --sheet.")
            }
            try Terminal.outputData(files[0])
            return
        }
        Watchdog.settle()
        if files.count == 1 {
            try OutputFile.write(files[0], to: output, inputs: [renderer.path])
            return
        }
        // Every numbered output is opened (and checked) before any is written.
        let digits = String(renderer.pageCount).count
        let outputs = try pages.map { (page) throws(OutputError) in
            try OutputFile(path: Self.numbered(output, page: page + 1, digits: digits), inputs: [renderer.path])
        }
        for (data, file) in zip(files, outputs) {
            try file.write(data)
            try file.commit()
        }
    }

    /// `out.png` → `out-07.png` (page number zero-padded to the page count's digits).
    static func numbered(_ path: DocumentPath, page: Int, digits: Int) -> DocumentPath {
        var number = String(page)
        while number.count < digits { number = "0" + number }
        let bytes = path.bytes
        let nameStart = (bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
        if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > nameStart {
            return DocumentPath(bytes: Array(bytes[..<dot]) + Array("-\(number)".utf8) + Array(bytes[dot...]))
        }
        return DocumentPath(bytes: bytes + Array("-\(number)".utf8))
    }
}
