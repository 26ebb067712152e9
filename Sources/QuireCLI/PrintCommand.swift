#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import FoundationEssentials
import Quire

struct PrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print files through CUPS, like lp(1).",
        discussion: """
            All files go to one job. PDF and PostScript are sent as they are; text and images are \
            converted to PDF. Page ranges (-P) count document pages and are checked against each \
            document before anything is sent ("0", "5-3" or a page past the end is an error). \
            With --number-up and -P together, Quire selects the pages itself (CUPS would count \
            the ranges after number-up).

            On success prints "request id is QUEUE-ID (N file(s))" as lp does. Exit status: 64 \
            bad option, page range, or unknown printer, also one removed while printing (the \
            available ones are listed); 65 the file cannot be printed; 66 a file is missing or \
            unreadable; 69 no printers, print system not running (a job it leaves half-sent is \
            named, to cancel), or the printer rejects jobs (with its reason); 75 the job was \
            cancelled by someone else while it was being sent. A paused printer takes the job \
            with a warning.

            With --wait, Quire follows the job until the scheduler reports it finished and \
            prints "QUEUE-ID: completed" (exit 0); a job cancelled (e.g. by another user or \
            `cancel`) or aborted exits 75, a scheduler that stops meanwhile 69.

            Sheets (composed by Quire). The options \(sheetOptionList), with lp's other \
            spellings -o landscape, -o fit-to-page and -o scaling=PERCENT, and --booklet, are \
            applied by Quire, not by CUPS: it selects the document pages -P names, places them on the \
            sheets (poppler drawing into a cairo PDF: vector, text stays text) and sends that PDF \
            with none of these options, so the print sheet's preview, --output and the paper \
            agree. -o collate=true asks CUPS to collate copies. The paper is one the printer \
            lists (media-supported; otherwise refused with the list), its printable area from \
            the printer's margins (media-col-database); orientation follows each page's shape \
            unless given.

            Where Quire differs from CUPS, and why: (1) -P counts document pages also with \
            number-up; CUPS's filters apply page-ranges to the sheets after number-up, so \
            "-P 5-10 -o number-up=2" would print document pages 9-20 (apple/cups 3008, 4838, \
            5094), while RFC 8011 means input pages. (2) page-set=odd/even counts the composed \
            sides (for printing fronts, then backs), not document pages. (3) --booklet exists \
            (CUPS has none): pages are reordered and placed two per side, padded with blanks to a \
            multiple of four (8 pages: 8|1, 2|7, 6|3, 4|5) and printed two-sided-short-edge; on \
            a one-sided printer Quire says before sending that it prints the fronts, then asks \
            for the backs with the same command and -o page-set=even. (4) outputorder=reverse on \
            two-sided jobs reverses whole sheets, keeping each front before its back. (5) \
            print-scaling=auto prints at actual size when the page fits the paper, else fits it \
            to the printable area.

            --output FILE.pdf (Save as PDF) writes the composed job exactly as it would be sent \
            (the default printer's paper and margins when one is set up; none is needed) and \
            sends nothing; written atomically: an unwritable path exits 73 and leaves nothing. \
            Saved options: like lp, Quire starts from the printer's options in lpoptions \
            (lpoptions -p PRINTER -o number-up=2, or --remember, which saves the paper, sides, \
            colour, scaling and pages per sheet given (never copies or pages) through \
            cupsSetDests2: ~/.cups/lpoptions, or the system's file for root, as lpoptions does); \
            options on the command line win. Bad sheet options (an unknown paper, number-up=3, a \
            booklet of one page, pages past the end) are one line on stderr, exit 64, nothing sent.

            Examples:
              quire print -d office -n 2 -P 2-4,7 report.pdf
              quire print notes.txt photo.jpg                # converted to PDF, one job
              quire print --dry-run -P 1-8 --number-up 4 report.pdf
              quire print --preview pages.pdf -P 3,5-6 report.pdf   # the pages that would print
              quire print --output out.pdf -o media=A5 -o fit-to-page report.pdf
            """)

    @Option(name: [.customShort("d"), .customLong("destination")], help: ArgumentHelp("Printer (queue or queue/instance).", valueName: "dest"))
    var destination: String?

    @Option(name: [.customShort("n"), .customLong("copies")], help: "Number of copies.")
    var copies: Int?

    @Option(name: [.customShort("P"), .customLong("pages")], help: ArgumentHelp("Document pages, e.g. 1-3,5,8-.", valueName: "ranges"))
    var pages: String?

    @Option(name: .customShort("o"), help: ArgumentHelp("Any other option as key=value, read as lp -o reads it: several in one word, quotes, \\ escapes (repeatable).", valueName: "key=value"))
    var extraOptions: [String] = []

    @Option(name: .long, help: ArgumentHelp("one-sided, two-sided-long-edge (long), two-sided-short-edge (short).", valueName: "sides"))
    var sides: String?

    @Option(name: .long, help: ArgumentHelp("Media name, e.g. iso_a4_210x297mm or A4.", valueName: "media"))
    var media: String?

    @Flag(name: .long, help: "Print in colour.")
    var color = false

    @Flag(name: .long, help: "Print in black and white.")
    var monochrome = false

    @Flag(name: .long, help: "Landscape orientation.")
    var landscape = false

    @Flag(name: .long, help: "Collate copies.")
    var collate = false

    @Option(name: .long, help: ArgumentHelp("Document pages per side (1, 2, 4, 6, 9, 16).", valueName: "n"))
    var numberUp: Int?

    @Flag(name: .long, help: "Scale pages to fit the media.")
    var fit = false

    @Option(name: [.customShort("t"), .customLong("title")], help: "Job title (default: the first file's name).")
    var title: String?

    @Option(name: [.customShort("q"), .customLong("priority")], help: "Job priority, 1-100 (50 is normal).")
    var priority: Int?

    @Option(name: [.customShort("H"), .customLong("hold")], help: ArgumentHelp("hold (until released), immediate, or a job-hold-until value.", valueName: "when"))
    var hold: String?

    @Flag(name: .long, help: "Wait until the job is completed, cancelled or aborted (exit 0 only if completed).")
    var wait = false

    @Flag(name: .long, help: "Show the destination, options and pages without sending anything.")
    var dryRun = false

    @Option(name: .long, help: ArgumentHelp("Write exactly the pages that would print to this PDF (nothing is sent).", valueName: "out.pdf"))
    var preview: String?

    @Flag(name: .long, help: "Make a booklet: pages reordered two per side, to fold (duplex short-edge, or two passes on a one-sided printer).")
    var booklet = false

    @Option(name: .long, help: ArgumentHelp("Save as PDF: write the composed job exactly as it would be sent, and send nothing.", valueName: "file.pdf"))
    var output: String?

    @Flag(name: .long, help: "Remember the paper, sides, colour, scaling and pages per sheet given here for the printer (in lpoptions, which lp reads too; never copies or pages). Later prints of one file are composed by Quire with them; several files go to CUPS with them, as with lp.")
    var remember = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Per-file time limit in seconds for reading and converting (exit status 75), and the longest wait for the print system to answer (exit status 69); 0 waits forever (default 60; env QUIRE_TIMEOUT).",
        valueName: "seconds"))
    var timeoutOption: Int?

    @OptionGroup var spreadsheet: SpreadsheetTextOption

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @Argument(help: ArgumentHelp("Files to print.", valueName: "file"))
    var files: [String]

    func validate() throws {
        _ = try Watchdog.seconds(timeoutOption, default: Self.defaultTimeout)
        if files.isEmpty { throw ValidationError("Give at least one file.") }
        if color && monochrome { throw ValidationError("--color and --monochrome exclude each other.") }
        if let copies, copies < 1 { throw ValidationError("-n must be at least 1.") }
        if let numberUp, numberUp < 1 { throw ValidationError("--number-up must be at least 1.") }
        if wait && (dryRun || preview != nil || output != nil) { throw ValidationError("--wait needs a job: not with --dry-run, --preview or --output.") }
        if preview != nil && output != nil { throw ValidationError("--preview and --output exclude each other.") }
    }

    /// Seconds per file when neither --timeout nor QUIRE_TIMEOUT says otherwise.
    static let defaultTimeout = 60

    /// The command line as plain values (what ``FastPathTable`` builds without the parser).
    func request() throws -> PrintRequest {
        try limits.applyMemoryLimit()
        var request = PrintRequest(destination: destination, copies: copies, pages: pages, extraOptions: extraOptions, sides: sides,
                     media: media, color: color, monochrome: monochrome, landscape: landscape, collate: collate,
                     numberUp: numberUp, fit: fit, title: title, priority: priority, hold: hold, wait: wait,
                     dryRun: dryRun, preview: preview.map(RawArguments.path), booklet: booklet, output: output.map(RawArguments.path), remember: remember,
                     files: files.map(RawArguments.path),
                     maximumFileSize: try limits.maximumFileSize(), renderLimits: try limits.renderLimits(),
                     seconds: try Watchdog.seconds(timeoutOption, default: Self.defaultTimeout))
        request.csvAsSpreadsheet = spreadsheet.csvAsSpreadsheet
        return request
    }

    func run() async throws {
        try spreadsheet.requireOffice()
        do {
            try await Self.print(try request())
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw PrintFailure.report(error).exitCode
        }
    }

    /// Prints (or with --dry-run/--preview, plans) what `request` asks; both the parsed command
    /// and ``FastPathTable``'s line come here. Throws `ExitCode` after reporting, or the error to report.
    static func print(_ request: PrintRequest) async throws {
        var options = try request.printOptions()
        // The print system gets the same time limit: a scheduler that does not answer ends the
        // command after --timeout seconds with "the print system does not answer".
        let printer = DocumentPrinter(system: PrintSystem(timeout: Double(request.seconds)))
        let sheetWords = request.sheetWords(moving: &options)
        // --output and --preview are checked before any work: a directory or an input as the
        // output is refused with nothing touched (OutputFile: links followed, devices written to).
        for output in [request.output, request.preview].compactMap({ $0 }) {
            try OutputFile.check(output, inputs: request.files)
            if OutputFile.isStandardOutput(output) && Terminal.isTerminal(1) {
                throw PrintError(.invalidOption, "not writing PDF data to a terminal: give a file name or pipe the output")
            }
        }
        if request.remember { try remember(sheetWords, options: options, destination: request.destination, system: printer.system) }
        if request.preview == nil, !sheetWords.isEmpty || request.output != nil {
            try await composed(request, options: options, words: sheetWords, printer: printer, target: nil)
            return
        }
        // Saved sheet options are composed by Quire for one file; several files go to CUPS with
        // them, which applies them to each document as lp does.
        if request.dryRun, request.preview == nil, request.files.count == 1,
           let destination = try? printer.system.destination(named: request.destination),
           let saved = try? printer.system.savedOptions(for: destination),
           Self.composes(saved.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) {
            // --dry-run shows what would be sent: with saved sheet options, the composed job.
            try await composed(request, options: options, words: [], printer: printer, target: nil)
            return
        }
        if request.dryRun || request.preview != nil {
            // The print system first, outside the file's time limit (its own limit bounds the
            // wait): a scheduler that does not answer is then reported as such.
            if request.preview != nil { _ = try? printer.system.destination(named: request.destination) }
            try plan(request, options: options, printer: printer)
            return
        }
        var documents: [Document] = []
        for path in request.files {
            Watchdog.arm(seconds: request.seconds * request.files.count, path: path)
            documents.append(try Document(path: path, maximumFileSize: request.maximumFileSize, limits: request.renderLimits,
                                          csvAsSpreadsheet: request.csvAsSpreadsheet, interpreters: CommandInterpreters.forDocuments))
        }
        // The print system's half (the destination, its capabilities, the options checked
        // against them: libcups loaded, two requests) runs while the documents' page ranges are
        // checked against their page counts; the job is created only when both are done. A
        // document's error wins over the printer's, as when the two ran one after the other, and
        // is reported at once: this process ends then, so the lookup is not waited for (a task,
        // not an `async let`, which would wait for a print server that does not answer).
        // poppler is loaded first: the dynamic loader takes one library at a time, and libcups
        // loads while poppler opens the documents instead of before.
        printer.loadPDFLibrary(for: documents)
        let target = Task { try printer.system.target(named: request.destination, options: options) }
        let items: [PrintPlan.Item], pageRangesValue: String?
        do {
            (items, pageRangesValue) = try printer.items(for: documents, options: options, keepingPDFs: false)
        } catch {
            // The printer's half may still be running (inside libcups's dlopen, or waiting on the
            // server). `exit` would run the process's exit handlers and C++ destructors under it
            // (seen: "double free or corruption" when the two overlapped), so the process ends
            // with `_exit` once the error is written (Terminal writes unbuffered).
            _exit((error as? ExitCode)?.rawValue ?? PrintFailure.report(error).rawValue)
        }
        // Reading and converting is done: the time limit does not cover talking to CUPS
        // (a job must never be cut off half-submitted).
        Watchdog.settle()
        let resolved = try await target.value
        // Saved options (lpoptions) that compose sheets: Quire composes, as for the same words
        // on the command line, instead of leaving number-up to CUPS.
        if request.files.count == 1, Self.composes(resolved.savedSheetOptions) {
            try await composed(request, options: options, words: [], printer: printer, target: resolved)
            return
        }
        let job = try printer.system.submit(items.map(\.document), to: resolved, options: options,
                                            pageRangesValue: pageRangesValue)
        for warning in job.warnings { Terminal.warning(warning) }
        Terminal.out("request id is \(job.requestID) (\(job.documentCount) file(s))\n")
        if request.wait { try await follow(job, printer.system) }
    }

    /// The sheet options as `quire print --help` lists them, from their declarations: "-o
    /// number-up=1/2/4/6/9/16", a switch by the word that turns it on ("-o outputorder=reverse").
    static var sheetOptionList: String {
        "-o media=A5, " + SheetOptions.choices.map { choice in
            let words = choice.values.filter { $0.option == nil }.map(\.word)
            return "-o \(choice.name)=" + (choice.isSwitch ? words[1] : words.joined(separator: "/"))
        }.joined(separator: ", ")
    }

    /// Whether saved options ask for composition (pages per side, paper, scaling…), not CUPS's defaults.
    static func composes(_ saved: [(String, String)]) -> Bool {
        var sheet = SheetOptions()
        for (name, value) in saved where name != "media" && name != "sides" { _ = try? sheet.apply(name, value) }
        return !sheet.isIdentity
    }

    /// The job Quire composes itself: the chosen document pages placed on sheets (paper,
    /// orientation, scaling, pages per side, booklet, odd/even, order) from the printer's saved
    /// options under the command line's, then sent — or, with --output, written as the PDF that
    /// would be sent; with --dry-run, described.
    static func composed(_ request: PrintRequest, options given: PrintOptions, words: [(String, String)],
                         printer: DocumentPrinter, target: PrintTarget?) async throws {
        guard request.files.count == 1 else {
            throw PrintError(.invalidOption, "paper, scaling, pages per side, booklet and --output compose one file at a time (\(request.files.count) given)")
        }
        var options = given
        Watchdog.arm(seconds: request.seconds, path: request.files[0])
        let document = try Document(path: request.files[0], maximumFileSize: request.maximumFileSize, limits: request.renderLimits,
                                    csvAsSpreadsheet: request.csvAsSpreadsheet, interpreters: CommandInterpreters.forDocuments)
        // The printer: its paper, margins, sides and saved options. Save as PDF needs none.
        // Talking to CUPS is bounded by the print system's own time limit (the same seconds),
        // so the file's limit stops meanwhile: a scheduler that does not answer is reported as
        // such, not as the file taking too long.
        Watchdog.settle()
        var destination = target?.destination
        if destination == nil {
            let found = Result { () throws(PrintError) -> Destination in try printer.system.destination(named: request.destination) }
            switch found {
            case .success(let value): destination = value
            case .failure(let error):
                let noPrinter = error.kind == .noPrinters || error.kind == .schedulerNotRunning || error.kind == .schedulerNotAnswering
                if !(request.output != nil && request.destination == nil && noPrinter) { throw error }
            }
        }
        var capabilities: PrintCapabilities?
        if let destination { capabilities = try printer.system.capabilities(of: destination) }
        let saved: [(String, String)]
        if let target { saved = target.savedSheetOptions }
        else if let destination { saved = try printer.system.savedOptions(for: destination).sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        else { saved = [] }
        var sheet = SheetOptions()
        for (name, value) in saved where name != "sides" {
            // A saved value Quire cannot use is skipped, as lp skips what a printer does not take.
            try? apply(name, value, to: &sheet)
        }
        for (name, value) in words { try apply(name, value, to: &sheet) }
        if options.sides == nil, let value = saved.first(where: { $0.0 == "sides" })?.1 { options.sides = PrintOptions.Sides(argument: value) }
        if sheet.paper == nil, !sheet.isIdentity, let media = capabilities?.defaultMedia { sheet.paper = PaperSize.named(media) }
        if let destination, let paper = sheet.paper {
            sheet.margins = (try? printer.system.margins(of: destination, media: paper.name)) ?? .zero
        }
        // A booklet prints back to back, flipped on the short edge; a one-sided printer gets two passes.
        var passes: String?
        let bookletInOnePass = capabilities?.printsBookletsInOnePass ?? false
        sheet.duplex = options.sides.map { $0 != .oneSided } ?? false
        if request.output == nil, capabilities != nil, let destination {
            let fronts = sheet.pageSet == .all
            if let sides = sheet.fitBooklet(inOnePass: bookletInOnePass) {
                options.sides = sides
                if sides == .oneSided, fronts {
                    passes = "\(destination.fullName) prints on one side only, so the booklet prints in two passes: this job prints the fronts; when they are out, turn the stack over on its short edge, put it back in the tray, and print the backs with the same command and -o page-set=even"
                }
            }
        }
        Watchdog.arm(seconds: request.seconds, path: request.files[0])
        let job = try printer.compose(document, pageRanges: options.pageRanges, sheet: sheet)
        Watchdog.settle()
        let name = request.files[0].displayName
        if let output = request.output {
            do { try OutputFile.write(job.pdf, to: output, inputs: request.files) } catch {
                throw ExitStatus.report(error) ?? ExitStatus.cannotCreate.exitCode
            }
            Self.wrote("wrote \(output): \(job.summary) (pages \(PageRanges.compact(job.pages)))\n", to: output)
            return
        }
        guard let destination else { throw PrintError(.noPrinters, "no printer to send the job to") }
        options = options.forComposedJob(media: sheet.paper?.name, booklet: sheet.booklet && capabilities != nil,
                                         bookletInOnePass: bookletInOnePass)
        if request.dryRun {
            var out = "destination: \(destination.fullName)" + (destination.problem.map { " (\($0))" } ?? "") + "\n"
            out += "file: \(name) (\(document.contentType.mimeType), \(job.pageCount) page\(job.pageCount == 1 ? "" : "s")): pages \(PageRanges.compact(job.pages))"
            out += " (composed by Quire: \(job.summary))\n"
            let sent = options.cupsOptionsForDisplay(pageRangesValue: nil)
            out += "options: " + (sent.isEmpty ? "(printer defaults)" : sent.map { "\($0.0)=\($0.1)" }.joined(separator: " ")) + "\n"
            out += "title: \(options.title ?? name)\n"
            Terminal.out(out)
            if let passes { Terminal.warning(passes) }
            return
        }
        // Said before anything is sent.
        if let passes { Terminal.warning(passes) }
        let sent = try printer.system.submit([PrintDocument(source: .data(job.pdf), mimeType: "application/pdf", name: name)],
                                             to: destination, options: options)
        for warning in sent.warnings { Terminal.warning(warning) }
        Terminal.out("request id is \(sent.requestID) (\(sent.documentCount) file(s))\n")
        if request.wait { try await follow(sent, printer.system) }
    }

    /// `--remember`: the remembered options given on this command line, saved for the printer
    /// in lpoptions (through libcups, as `lpoptions -p PRINTER -o …` saves them).
    static func remember(_ words: [(String, String)], options: PrintOptions, destination name: String?,
                         system: PrintSystem) throws {
        var sheet = SheetOptions()
        var saved: [String: String] = [:]
        var given: Set<String> = []
        for (name, value) in words {
            try apply(name, value, to: &sheet)
            given.insert(name)
        }
        if given.contains("media"), let paper = sheet.paper { saved["media"] = paper.name }
        for choice in SheetOptions.choices where choice.remembered && !given.isDisjoint(with: SheetOptions.spellings(of: choice)) {
            // A percentage is `scaling`, which lpoptions does not keep for a printer.
            let value = choice.value(in: sheet)
            if value.option == nil { saved[choice.name] = value.word }
        }
        if let sides = options.sides { saved["sides"] = sides.rawValue }
        if let mode = options.colorMode { saved["print-color-mode"] = mode.rawValue }
        guard !saved.isEmpty else {
            throw PrintError(.invalidOption, "nothing to remember: give the paper, sides, colour, scaling or pages per sheet to keep")
        }
        let destination = try system.destination(named: name)
        try system.saveOptions(saved, for: destination)
        Terminal.errorText("remembered for \(destination.fullName): " + saved.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "\n")
    }

    /// One sheet option into `sheet`; a paper name must be one Quire can size.
    static func apply(_ name: String, _ value: String, to sheet: inout SheetOptions) throws(PrintError) {
        if name == "media" {
            guard let paper = PaperSize.named(value) else {
                throw PrintError(.invalidOption,
                                 "unknown paper \"\(value)\" (known: \(PaperSize.commonNames.joined(separator: ", ")), or a PWG name such as iso_a4_210x297mm)")
            }
            sheet.paper = paper
            return
        }
        do { _ = try sheet.apply(name, value) } catch { throw PrintError(.invalidOption, error.message) }
    }

    /// --dry-run and --preview: the whole plan, options checked against the printer, nothing sent.
    static func plan(_ request: PrintRequest, options: PrintOptions, printer: DocumentPrinter) throws {
        var documents: [Document] = []
        for path in request.files {
            Watchdog.arm(seconds: request.seconds * request.files.count, path: path)
            documents.append(try Document(path: path, maximumFileSize: request.maximumFileSize, limits: request.renderLimits,
                                          csvAsSpreadsheet: request.csvAsSpreadsheet, interpreters: CommandInterpreters.forDocuments))
        }
        let plan = try printer.plan(documents, destination: request.destination, options: options)
        Watchdog.settle()
        if let preview = request.preview {
            guard plan.items.count == 1 else { throw PrintError(.invalidOption, "--preview takes exactly one file") }
            let data = try printer.previewPDF(plan)
            // Atomically (temporary file beside it, then rename): a failure leaves nothing.
            do { try OutputFile.write(data, to: preview, inputs: request.files) } catch {
                throw ExitStatus.report(error) ?? ExitStatus.cannotCreate.exitCode
            }
            Self.wrote("wrote \(plan.items[0].pages?.count ?? 0) page(s) to \(preview)\n", to: preview)
            return
        }
        Terminal.out(describe(plan))
        for warning in plan.warnings { Terminal.warning(warning) }
    }

    /// Says what was written: on standard error when the output itself went to standard output.
    static func wrote(_ line: String, to output: DocumentPath) {
        if OutputFile.isStandardOutput(output) { Terminal.errorText(line) } else { Terminal.out(line) }
    }

    /// `--wait`: polls the job until it is finished and reports how it ended.
    static func follow(_ job: PrintJob, _ system: PrintSystem) async throws {
        let finished: JobInfo
        do {
            finished = try await JobQueue(system: system).waitUntilFinished(job.id)
        } catch {
            guard error.kind == .schedulerNotRunning else { throw error }
            throw PrintError(error.kind, error.message + "; stopped waiting for \(job.requestID), which stays in the queue",
                             ipp: error.ipp)
        }
        let detail = Self.detail(finished)
        switch finished.state {
        case .completed:
            Terminal.out("\(job.requestID): completed\n")
        case .canceled:
            Terminal.error("\(job.requestID) was cancelled before it completed\(detail)")
            throw ExitStatus.temporaryFailure.exitCode
        default:
            Terminal.error("\(job.requestID) was aborted by the print system\(detail)")
            throw ExitStatus.temporaryFailure.exitCode
        }
    }

    /// Why a job ended, from its reasons and message: " (by a user; …)", or "".
    static func detail(_ job: JobInfo) -> String {
        let known = [
            "job-canceled-by-user": "by a user", "job-canceled-by-operator": "by an operator",
            "job-canceled-at-device": "at the printer", "aborted-by-system": "by the print system",
            "job-aborted-by-system": "by the print system", "document-format-error": "the printer could not read it",
            "job-completed-with-errors": "with errors",
        ]
        var parts = job.stateReasons.compactMap { known[$0] }
        if let message = job.stateMessage, !message.isEmpty { parts.append(message) }
        return parts.isEmpty ? "" : " (\(parts.joined(separator: "; ")))"
    }

    static func describe(_ plan: PrintPlan) -> String {
        var out = "destination: \(plan.destination.fullName)"
        if let problem = plan.destination.problem { out += " (\(problem))" }
        out += "\n"
        for item in plan.items {
            out += "file: \(item.document.name) (\(item.document.mimeType)"
            if let count = item.pageCount { out += ", \(count) page\(count == 1 ? "" : "s")" }
            out += ")"
            if let pages = item.pages { out += ": pages \(PageRanges.compact(pages))" }
            if item.pagesSelectedBeforeSending { out += " (selected by Quire)" }
            out += "\n"
        }
        let options = plan.options.cupsOptionsForDisplay(pageRangesValue: plan.pageRangesValue)
        out += "options: " + (options.isEmpty ? "(printer defaults)" : options.map { "\($0.0)=\($0.1)" }.joined(separator: " ")) + "\n"
        out += "title: \(plan.options.title ?? plan.items.first?.document.name ?? "")\n"
        return out
    }
}

/// What `quire print` was asked: the options as given (checked and turned into ``PrintOptions``
/// by ``printOptions()``), the files as `argv` bytes, the limits in force.
struct PrintRequest: Equatable {
    var destination: String?
    var copies: Int?
    var pages: String?
    var extraOptions: [String] = []
    var sides: String?
    var media: String?
    var color = false
    var monochrome = false
    var landscape = false
    var collate = false
    var numberUp: Int?
    var fit = false
    var title: String?
    var priority: Int?
    var hold: String?
    var wait = false
    var dryRun = false
    var preview: DocumentPath?
    var booklet = false
    var output: DocumentPath?
    var remember = false
    var files: [DocumentPath]
    var maximumFileSize: Int64
    var renderLimits: RenderLimits
    var seconds: Int
    /// `--csv-as-spreadsheet`: CSV and TSV files laid out by LibreOffice Calc.
    var csvAsSpreadsheet = false

    /// Moves the options Quire composes itself (paper, orientation, scaling, pages per side,
    /// layout, border, odd/even, order, booklet) out of `options` — the flags and the `-o` words
    /// alike, in command-line order for the words — and `-o collate` into ``PrintOptions/collate``.
    func sheetWords(moving options: inout PrintOptions) -> [(String, String)] {
        var words: [(String, String)] = []
        if let media { words.append(("media", media)) }
        if landscape { words.append(("landscape", "true")) }
        if let numberUp { words.append(("number-up", String(numberUp))) }
        if fit { words.append(("fit-to-page", "true")) }
        if booklet { words.append(("booklet", "true")) }
        var kept: [PrintOptions.Attribute] = []
        for attribute in options.extra {
            if SheetOptions.optionNames.contains(attribute.key) {
                words.append((attribute.key, attribute.value))
            } else if attribute.key == "collate" {
                options.collate = ["true", "yes", "on", ""].contains(attribute.value.lowercased())
            } else {
                kept.append(attribute)
            }
        }
        options.extra = kept
        options.media = nil
        options.orientation = nil
        options.numberUp = nil
        options.fitToPage = false
        return words
    }

    func printOptions() throws(PrintError) -> PrintOptions {
        var options = PrintOptions()
        options.copies = copies
        if let pages { options.pageRanges = try PageRanges(pages) }
        if let sides {
            guard let parsed = PrintOptions.Sides(argument: sides) else {
                throw PrintError(.invalidOption, "--sides \(sides): expected one-sided, two-sided-long-edge or two-sided-short-edge")
            }
            options.sides = parsed
        }
        options.media = media
        if color { options.colorMode = .color }
        if monochrome { options.colorMode = .monochrome }
        if landscape { options.orientation = .landscape }
        if collate { options.collate = true }
        options.numberUp = numberUp
        options.fitToPage = fit
        options.title = title
        options.priority = priority
        options.holdUntil = hold.map(PrintOptions.holdValue)
        for argument in extraOptions { options.extra += try PrintOptions.parseExtra(argument) }
        return options
    }
}
