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

    /// A field the user fills in.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case printer, copies, pages, sides, colorMode
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

    init(document: Document, prepared: PrintableDocument, currentPage: Int?, system: PrintSystem,
         conversion: PrintConversion) throws(PrintError) {
        self.document = document
        self.prepared = prepared
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
                dropUnsupportedChoices()
                return
            }
        }
    }

    /// Chooses printer `index` if it is selectable; otherwise returns why not.
    @discardableResult
    public func selectPrinter(at index: Int) -> String? {
        guard printers.indices.contains(index) else { return "no such printer" }
        guard printers[index].isSelectable else { return "\(printers[index].name) is \(printers[index].stateText)" }
        selectedIndex = index
        dropUnsupportedChoices()
        return nil
    }

    /// After a change of printer: choices the new one does not offer go back to its default.
    private func dropUnsupportedChoices() {
        if let sides, !sidesChoices.contains(sides) { self.sides = nil }
        if let colorMode, !colorModeChoices.contains(colorMode) { self.colorMode = nil }
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

    /// Validates everything, then submits one job through libcups.
    public func submit() throws -> PrintJob {
        let plan = try printer.plan(prepared: document, pageCount: prepared.pageCount, convertedPDF: prepared.convertedPDF,
                                    destination: selected.name, options: try options())
        return try printer.submit(plan)
    }
}

