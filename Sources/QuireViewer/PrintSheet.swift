#if canImport(Glibc)
import Glibc
#endif
import Quire
import QuireRenderService

/// The print sheet behind a viewer's Print action: the printers with their state, copies
/// (1…the printer's maximum), which pages (all, the current one, or a range validated against
/// the document), sides only when the printer prints on both sides and colour mode only when it
/// prints in colour; which pages will print (``pagesToPrint``) for a preview. ``submit()`` sends
/// one job through QuirePrint (libcups).
///
/// What a field holds is what is sent: copies are digits only (``isCopiesInput(_:)`` tells a
/// front-end which typed text to refuse), an empty or out-of-range count is a problem, not a
/// default; choosing "Pages" with nothing typed is a problem, not "all pages". While any field
/// has a problem ``firstProblem`` names it and ``submit()`` sends nothing — the window and the
/// terminal form both draw these rules from here.
///
/// A sheet exists only when printing can work (``ViewerModel/makePrintSheet()``); a printer
/// that is stopped or rejecting jobs is listed, with its reason, but cannot be chosen.
public final class PrintSheet {
    /// One printer as the sheet lists it.
    public struct Printer: Sendable, Hashable {
        public let destination: Destination
        /// "idle", "printing", "stopped: paper jam", "rejecting jobs".
        public let stateText: String
        /// Whether it can be chosen (accepting jobs and not stopped).
        public let isSelectable: Bool
        public var name: String { destination.fullName }
        public var isDefault: Bool { destination.isDefault }
    }

    /// A field the user fills in, named as `lp` names what it sets. Besides these, each of
    /// ``SheetOptions/choices`` is a field (``choice``).
    public struct Field: Sendable, Hashable {
        public let name: String
        public init(_ name: String) { self.name = name }
        public init(_ choice: SheetChoice) { name = choice.name }

        public static let printer = Field("printer"), copies = Field("copies"), pages = Field("page-ranges")
        public static let sides = Field("sides"), colorMode = Field("print-color-mode"), paper = Field("media")
        /// Print, or Save as PDF (``saveAsPDF``).
        public static let saveAsPDF = Field("output")
        public static let orientation = Field("orientation-requested"), scaling = Field("print-scaling")
        public static let pagesPerSheet = Field("number-up"), layout = Field("number-up-layout"), border = Field("page-border")
        public static let booklet = Field("booklet"), pageSet = Field("page-set"), reverse = Field("outputorder")

        /// The sheet choice this field is, if it is one.
        public var choice: SheetChoice? { SheetOptions.choice(named: name) }
    }

    public let printers: [Printer]
    /// Index into ``printers`` of the chosen one (always a selectable printer).
    public private(set) var selectedIndex: Int
    /// Which pages print.
    public enum PageChoice: String, Sendable, Hashable, CaseIterable {
        /// Every page of the document.
        case all
        /// The page the viewer shows (``currentPage``).
        case current
        /// The pages ``pagesText`` names.
        case range
    }

    /// Copies as typed: digits only; empty is a problem (nothing is sent), never "1".
    public var copiesText = "1"
    /// Which pages print; typing a range chooses ``PageChoice/range``.
    public var pageChoice: PageChoice = .all
    /// Page range as typed ("2-3,7"); used when ``pageChoice`` is ``PageChoice/range``, where
    /// empty is a problem. Setting a non-empty range chooses ``PageChoice/range``.
    public var pagesText = "" {
        didSet { if !pagesText.isEmpty { pageChoice = .range } }
    }
    /// The 1-based page the viewer shows, for ``PageChoice/current`` (nil: no such choice).
    public let currentPage: Int?
    /// The chosen sides (nil: the printer's default). Only offered when ``sidesChoices`` is not empty.
    public var sides: PrintOptions.Sides?
    /// The chosen colour mode (nil: the printer's default). Only offered when
    /// ``colorModeChoices`` is not empty.
    public var colorMode: PrintOptions.ColorMode?
    /// Pages in the document as it will print (nil when unknown before conversion).
    public let pageCount: Int?
    /// The document's name.
    public let documentName: String

    private let document: Document
    /// What prints, as the render worker prepared it (page count, converted PDF).
    private let prepared: PrintableDocument
    private let printer: DocumentPrinter
    private var capabilityCache: [String: PrintCapabilities] = [:]
    private var marginCache: [String: Margins] = [:]
    /// Composes the job in the render worker (the PDF that is sent or saved).
    private let compose: (SheetRequest) -> Result<PrintableDocument, RenderProblem>

    // MARK: How pages go on sheets

    /// The paper (nil: the printer's default when composing; each page's own size otherwise).
    public var paper: PaperSize?
    /// How pages go on sheets as chosen, one value per ``SheetOptions/choices`` (paper,
    /// margins and sides come from the fields and the printer: ``sheetOptions``).
    public var chosen = SheetOptions()
    /// Save as PDF: the file the composed job is written to instead of being printed.
    public var saveAsPDF: DocumentPath?
    /// The booklet pass a one-sided printer prints next (fronts, then backs), once started.
    public private(set) var bookletPass: SheetOptions.PageSet?

    init(document: Document, prepared: PrintableDocument, currentPage: Int?, system: PrintSystem,
         conversion: PrintConversion,
         compose: @escaping (SheetRequest) -> Result<PrintableDocument, RenderProblem> = { _ in
             .failure(RenderProblem(.unsupported, "composition needs the render worker"))
         }) throws(PrintError) {
        self.document = document
        self.prepared = prepared
        self.compose = compose
        let pageCount = prepared.pageCount
        self.pageCount = pageCount
        self.currentPage = pageCount.flatMap { count in currentPage.map { min(max($0, 1), max(count, 1)) } }
        documentName = document.path.displayName
        printer = DocumentPrinter(system: system, conversion: conversion)
        let destinations = try system.destinations()
        printers = destinations.map { destination in
            let state = destination.problem ?? destination.state.rawValue
            return Printer(destination: destination, stateText: state,
                           isSelectable: destination.isAcceptingJobs && destination.state != .stopped)
        }
        guard let first = printers.firstIndex(where: { $0.isSelectable && $0.isDefault })
                ?? printers.firstIndex(where: \.isSelectable) else {
            throw PrintError(.notAccepting, "no printer is accepting jobs")
        }
        selectedIndex = first
        applySavedOptions()
    }

    /// Starts from the user's saved options for the chosen printer (lpoptions, as `lp` reads
    /// them): paper, sides, colour, scaling and pages per sheet.
    private func applySavedOptions() {
        guard let saved = try? printer.system.savedOptions(for: selected.destination) else { return }
        // libcups lists the queue's own defaults among a destination's options too: a value
        // equal to the printer's default stays "Printer default".
        let defaults = capabilities
        paper = saved["media"].flatMap { $0 == defaults?.defaultMedia ? nil : PaperSize.named($0) }
        sides = saved["sides"].flatMap(PrintOptions.Sides.init(argument:))
        colorMode = saved["print-color-mode"].flatMap { $0 == defaults?.defaultColorMode ? nil : PrintOptions.ColorMode(rawValue: $0) }
        for choice in SheetOptions.choices where choice.remembered {
            choice.choose(0, in: &chosen)
            if let value = saved[choice.name] { _ = try? chosen.apply(choice.name, value) }
        }
        dropUnsupportedChoices()
    }

    /// Paper the chosen printer takes (its `media-supported`, as people name it); when Saving
    /// as PDF, the common sizes.
    public var paperChoices: [PaperSize] {
        if saveAsPDF == nil, let media = capabilities?.media, !media.isEmpty {
            var seen = Set<String>()
            return media.compactMap(PaperSize.named).filter { seen.insert($0.name).inserted }
        }
        return PaperSize.commonNames.compactMap(PaperSize.named)
    }

    /// Where Save as PDF writes unless the user says otherwise: "NAME-print.pdf" in `$HOME`.
    public var defaultPDFPath: DocumentPath {
        let home = getenv("HOME").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let base = documentName.lowercased().hasSuffix(".pdf") ? String(documentName.dropLast(4)) : documentName
        return DocumentPath(home + "/" + base + "-print.pdf")
    }

    /// The printer's default paper, when it says.
    public var defaultPaper: PaperSize? { capabilities?.defaultMedia.flatMap(PaperSize.named) }

    /// How the pages go on sheets, as chosen (with the printer's default paper and margins).
    public var sheetOptions: SheetOptions {
        var options = chosen
        // A choice that means nothing with the others as they are (order and border with one
        // page per side) is not applied.
        for choice in SheetOptions.choices where !choice.applies(to: chosen) { choice.choose(0, in: &options) }
        options.paper = paper
        if options.paper == nil, !options.isIdentity { options.paper = defaultPaper }
        if saveAsPDF == nil, let paper = options.paper {
            let key = "\(selected.name)\u{0}\(paper.name)"
            if marginCache[key] == nil { marginCache[key] = (try? printer.system.margins(of: selected.destination, media: paper.name)) ?? .zero }
            options.margins = marginCache[key] ?? .zero
        }
        options.duplex = sides.map { $0 != .oneSided } ?? false
        if saveAsPDF == nil { _ = options.fitBooklet(inOnePass: bookletDuplex, pass: bookletPass ?? .odd) }
        return options
    }

    /// Whether Quire composes the job (anything but every page as it is, or Save as PDF).
    public var composes: Bool { saveAsPDF != nil || !sheetOptions.isIdentity }

    /// The composed job the preview draws and the sheet sends: nil when the pages are not known.
    public var sheetRequest: SheetRequest? {
        pagesToPrint.flatMap { $0.isEmpty ? nil : SheetRequest(pages: $0, options: sheetOptions) }
    }

    /// Sides the job prints (from the page count alone: shown at once, before any is drawn).
    public var sideCount: Int? {
        pagesToPrint.map { Imposition.sideCount(pages: $0.count, options: sheetOptions) }
    }

    /// "3 sheets of A4, 6 sides".
    public var summary: String? {
        sideCount.map { Imposition.summary(sides: $0, options: sheetOptions) }
    }

    /// Whether the chosen printer prints a booklet back to back (duplex, flipped on the short edge).
    public var bookletDuplex: Bool { capabilities?.printsBookletsInOnePass ?? false }

    /// What the user must know before a booklet prints on a one-sided printer (said before sending).
    public var bookletNote: String? {
        guard chosen.booklet, saveAsPDF == nil, !bookletDuplex else { return nil }
        if bookletPass == .even {
            return "Fronts sent. Turn the printed stack over on its short edge, put it back in the tray, then Print again for the backs."
        }
        return "\(selected.name) prints on one side only: the booklet prints in two passes — the fronts first, then you put the stack back for the backs."
    }

    /// Moves a sheet choice to its next (`step` 1) or previous (-1) value.
    public func cycle(_ choice: SheetChoice, step: Int) { choice.cycle(&chosen, step: step) }

    /// Cycles the paper through the printer's (nil = its default first).
    public func cyclePaper(step: Int) {
        let choices: [PaperSize?] = [nil] + paperChoices.map { Optional($0) }
        let index = choices.firstIndex(where: { $0?.name == paper?.name }) ?? 0
        paper = choices[(index + step + choices.count) % choices.count]
    }

    /// Saves paper, sides, colour, scaling and pages per sheet for the chosen printer, the
    /// CUPS way (lpoptions, which `lp` reads too); never copies or pages. A choice left at the
    /// printer's default is removed from the file.
    public func rememberForPrinter() throws(PrintError) {
        var saved: [String: String] = [:]
        var removing: Set<String> = []
        func put(_ key: String, _ value: String?) {
            if let value { saved[key] = value } else { removing.insert(key) }
        }
        put("media", paper?.name)
        put("sides", sides?.rawValue)
        put("print-color-mode", colorMode?.rawValue)
        for choice in SheetOptions.choices where choice.remembered {
            let value = choice.value(in: chosen)
            // A percentage is `scaling`, which lpoptions does not keep for a printer.
            if value.option == nil { put(choice.name, choice.isDefault(in: chosen) ? nil : value.word) }
        }
        try printer.system.saveOptions(saved, removing: removing, for: selected.destination)
    }

    public var selected: Printer { printers[selectedIndex] }

    /// The chosen printer's capabilities (asked once per printer).
    public var capabilities: PrintCapabilities? {
        let name = selected.name
        if let known = capabilityCache[name] { return known }
        guard let asked = try? printer.system.capabilities(of: selected.destination) else { return nil }
        capabilityCache[name] = asked
        return asked
    }

    /// Copies the printer accepts: its `copies-supported` (999 at most when it says nothing).
    public var copiesRange: ClosedRange<Int> { capabilities?.copies ?? 1...999 }

    /// Whether `text` may go into the copies field at all: digits only. A front-end refuses
    /// anything else as it is typed or pasted, so the field never shows what would not be sent.
    public static func isCopiesInput(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `character` may be typed into a page range ("1-3,7").
    public static func isPagesInput(_ character: Character) -> Bool {
        character.isASCII && (character.isNumber || "-, ".contains(character))
    }

    /// What the range field asks for when it is empty.
    public static let pagesPrompt = "Enter pages, e.g. 1-3,7"

    /// Sides the user may choose: empty unless the printer prints on both sides.
    public var sidesChoices: [PrintOptions.Sides] {
        guard let capabilities, capabilities.duplex else { return [] }
        return PrintOptions.Sides.allCases.filter { capabilities.sides.contains($0.rawValue) }
    }

    /// Colour modes the user may choose: empty unless the printer prints in colour (its
    /// `print-color-mode-supported` has `color`); then colour and black-and-white as it lists them.
    public var colorModeChoices: [PrintOptions.ColorMode] {
        guard let modes = capabilities?.colorModes, modes.contains(PrintOptions.ColorMode.color.rawValue) else { return [] }
        return [.color, .monochrome].filter { modes.contains($0.rawValue) }
    }

    /// The fields to show, in order (sides only for duplex printers, colour mode only for colour ones).
    public var fields: [Field] {
        [.printer, .copies, .pages] + (sidesChoices.isEmpty ? [] : [.sides]) + (colorModeChoices.isEmpty ? [] : [.colorMode])
            + [.paper] + SheetOptions.choices.filter { $0.applies(to: chosen) }.map(Field.init) + [.saveAsPDF]
    }

    /// Most pages a preview shows; the rest are counted ("+N more").
    public static let previewLimit = 8

    /// The 1-based pages that will print with the range as typed, in order (all pages for an
    /// empty range); nil when the page count is not known or the range is not valid.
    public var pagesToPrint: [Int]? {
        guard let pageCount else { return nil }
        switch pageChoice {
        case .all:
            return pageCount > 0 ? Array(1...pageCount) : []
        case .current:
            return currentPage.map { [$0] }
        case .range:
            let text = pagesText.trimmingWhitespace()
            if text.lowercased() == "all" { return pageCount > 0 ? Array(1...pageCount) : [] }
            return try? PageRanges(text).pages(pageCount: pageCount)
        }
    }

    /// The page range sent for the choice: nil for every page.
    private var rangeToSend: String? {
        switch pageChoice {
        case .all: return nil
        case .current: return currentPage.map(String.init)
        case .range:
            let text = pagesText.trimmingWhitespace()
            return text.lowercased() == "all" ? nil : text
        }
    }

    /// Chooses the next (`step` 1) or previous (-1) selectable printer.
    public func selectPrinter(step: Int) {
        guard !printers.isEmpty else { return }
        var index = selectedIndex
        for _ in 0..<printers.count {
            index = (index + step + printers.count) % printers.count
            if printers[index].isSelectable {
                selectedIndex = index
                applySavedOptions()
                return
            }
        }
    }

    /// Chooses printer `index` if it is selectable; otherwise returns why not.
    @discardableResult
    public func selectPrinter(at index: Int) -> String? {
        guard printers.indices.contains(index) else { return "no such printer" }
        guard printers[index].isSelectable else { return "\(printers[index].name) is \(printers[index].stateText)" }
        if index != selectedIndex {
            selectedIndex = index
            bookletPass = nil
            applySavedOptions()
        }
        return nil
    }

    /// After a change of printer: choices the new one does not offer go back to its default.
    private func dropUnsupportedChoices() {
        if let sides, !sidesChoices.contains(sides) { self.sides = nil }
        if let colorMode, !colorModeChoices.contains(colorMode) { self.colorMode = nil }
        if let paper, saveAsPDF == nil, !paperChoices.contains(where: { $0.name == paper.name }) { self.paper = nil }
    }

    /// Cycles the colour mode through the printer's choices (nil = printer default first).
    public func cycleColorMode(step: Int) {
        let choices: [PrintOptions.ColorMode?] = [nil] + colorModeChoices.map { Optional($0) }
        let current = choices.firstIndex(where: { $0 == colorMode }) ?? 0
        colorMode = choices[(current + step + choices.count) % choices.count]
    }

    /// Cycles sides through the printer's choices (nil = printer default first).
    public func cycleSides(step: Int) {
        let choices: [PrintOptions.Sides?] = [nil] + sidesChoices.map { Optional($0) }
        let current = choices.firstIndex(where: { $0 == sides }) ?? 0
        sides = choices[(current + step + choices.count) % choices.count]
    }

    /// What is wrong with a field as filled in, or nil.
    public func problem(in field: Field) -> String? {
        switch field {
        case .printer:
            return selected.isSelectable ? nil : "\(selected.name) is \(selected.stateText)"
        case .copies:
            let range = copiesRange
            let text = copiesText.trimmingWhitespace()
            guard !text.isEmpty else { return "Enter the number of copies (\(range.lowerBound) to \(range.upperBound))" }
            guard Self.isCopiesInput(text), let copies = Int(text), range.contains(copies) else {
                return "copies must be a number from \(range.lowerBound) to \(range.upperBound)"
            }
            return nil
        case .pages:
            if pageChoice == .current, currentPage == nil { return "the current page is not known" }
            guard pageChoice == .range else { return nil }
            let text = pagesText.trimmingWhitespace()
            guard !text.isEmpty else { return Self.pagesPrompt }
            guard text.lowercased() != "all" else { return nil }
            do {
                let ranges = try PageRanges(text)
                if let pageCount { _ = try ranges.pages(pageCount: pageCount) }
                return nil
            } catch {
                return error.message
            }
        case .sides:
            guard let sides else { return nil }
            return sidesChoices.contains(sides) ? nil : "\(selected.name) cannot print \(sides.rawValue)"
        case .colorMode:
            guard let colorMode else { return nil }
            return colorModeChoices.contains(colorMode) ? nil : "\(selected.name) does not print in \(colorMode.rawValue)"
        case .paper:
            guard let paper, saveAsPDF == nil else { return nil }
            let choices = paperChoices
            return choices.contains(where: { $0.name == paper.name }) ? nil
                : "\(selected.name) does not take \(paper.displayName) (it takes \(choices.map(\.displayName).joined(separator: ", ")))"
        case .pageSet:
            guard chosen.pageSet != .all else { return nil }
            if chosen.booklet, saveAsPDF == nil, !bookletDuplex { return "a booklet on a one-sided printer chooses its own sides (two passes)" }
            if sideCount == 0 { return "there is only one side: no even sides to print" }
            return nil
        case .saveAsPDF:
            guard let path = saveAsPDF else { return nil }
            return path.bytes.isEmpty ? "choose a file to save the PDF to" : nil
        case .pagesPerSheet:
            return SheetOptions.numberUpChoices.contains(chosen.numberUp) ? nil : "pages per sheet: 1, 2, 4, 6, 9 or 16"
        case .booklet:
            guard chosen.booklet, let pages = pagesToPrint else { return nil }
            return pages.count < 2 ? "a booklet needs at least 2 pages" : nil
        default:
            return nil
        }
    }

    /// The first problem in any field, with the field.
    public var firstProblem: (field: Field, message: String)? {
        for field in fields { if let message = problem(in: field) { return (field, message) } }
        return nil
    }

    /// The options the sheet would print with (after validation).
    public func options() throws(PrintError) -> PrintOptions {
        if let (_, message) = firstProblem { throw PrintError(.invalidOption, message) }
        var options = PrintOptions()
        // Checked above: the text is digits within the printer's range.
        guard let copies = Int(copiesText.trimmingWhitespace()) else {
            throw PrintError(.invalidOption, "Enter the number of copies")
        }
        if copies != 1 { options.copies = copies }
        if let pages = rangeToSend { options.pageRanges = try PageRanges(pages) }
        options.sides = sides
        options.colorMode = colorMode
        return options
    }

    /// The chosen printer's unfinished jobs (pending, held, processing, stopped), for the
    /// sheet's queue view.
    public func queue() throws(PrintError) -> [JobInfo] {
        try JobQueue(system: printer.system).jobs(on: selected.name, which: .active)
    }

    /// Cancels job `id` (one of ``queue()``'s).
    public func cancel(job id: Int) throws(PrintError) {
        try JobQueue(system: printer.system).cancel(id)
    }

    /// Validates everything, then submits one job through libcups. When the sheet composes
    /// (paper, scaling, pages per sheet, booklet), the job is the PDF the render worker composes
    /// with the composer that drew the preview; CUPS gets it with no page selection or
    /// number-up of its own. A booklet on a one-sided printer goes in two passes: the fronts,
    /// then (the next submit) the backs.
    public func submit() throws -> PrintJob {
        if saveAsPDF != nil { throw PrintError(.invalidOption, "Save as PDF writes a file: use saveAsPDFFile()") }
        var options = try options()
        guard composes else {
            let plan = try printer.plan(prepared: document, pageCount: prepared.pageCount, convertedPDF: prepared.convertedPDF,
                                        destination: selected.name, options: options)
            return try printer.submit(plan)
        }
        if chosen.booklet, bookletDuplex {
            // The printer may have lost duplex since the preview (another queue setting, a
            // unit removed): asked again, and if so said before anything is sent.
            let fresh = try printer.system.capabilities(of: selected.destination)
            if !fresh.printsBookletsInOnePass {
                capabilityCache[selected.name] = fresh
                throw PrintError(.invalidOption,
                                 "\(selected.name) no longer prints on both sides: the booklet prints in two passes, the fronts first, then you put the stack back for the backs. Print again to send the fronts.")
            }
        }
        let sheet = sheetOptions
        let pdf = try composedPDF()
        options = options.forComposedJob(media: sheet.paper?.name, booklet: chosen.booklet, bookletInOnePass: bookletDuplex)
        let job = try printer.system.submit([PrintDocument(source: .data(pdf), mimeType: "application/pdf", name: documentName)],
                                            to: selected.destination, options: options)
        if chosen.booklet, !bookletDuplex { bookletPass = bookletPass == .even ? nil : .even }
        return job
    }

    /// Save as PDF: writes the composed job to ``saveAsPDF`` (atomically); returns the sides written.
    @discardableResult
    public func saveAsPDFFile() throws -> Int {
        guard let path = saveAsPDF else { throw PrintError(.invalidOption, "choose a file to save the PDF to") }
        if let (_, message) = firstProblem { throw PrintError(.invalidOption, message) }
        let pdf = try composedPDF()
        try OutputFile.write(pdf, to: path)
        return sideCount ?? 0
    }

    /// The composed job's PDF, from the render worker: exactly what ``submit()`` sends.
    public func composedPDF() throws -> [UInt8] {
        guard let request = sheetRequest else { throw PrintError(.invalidOption, "the pages to print are not known") }
        switch compose(request) {
        case .success(let document):
            guard let pdf = document.convertedPDF else { throw PrintError(.unprintable, "\(documentName): nothing was composed") }
            return pdf
        case .failure(let problem):
            throw PrintError(.unprintable, "\(documentName): \(problem.message)")
        }
    }
}

