import Quire

/// The print sheet behind a viewer's Print action: the printers with their state, copies
/// (1…the printer's maximum), a page range validated against the document, sides only when
/// the printer prints on both sides and colour mode only when it prints in colour; which pages
/// will print (``pagesToPrint``) for a preview. ``submit()`` sends one job through QuirePrint (libcups).
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
    /// Copies as typed; empty means 1.
    public var copiesText = ""
    /// Page range as typed ("2-3,7"); empty means all pages.
    public var pagesText = ""
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
    private let printer: DocumentPrinter
    private var capabilityCache: [String: PrintCapabilities] = [:]

    init(document: Document, pageCount: Int?, system: PrintSystem, conversion: PrintConversion) throws(PrintError) {
        self.document = document
        self.pageCount = pageCount
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

    /// Copies the printer accepts.
    public var copiesRange: ClosedRange<Int> { capabilities?.copies ?? 1...999 }

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
        let text = pagesText.trimmingWhitespace()
        if text.isEmpty || text.lowercased() == "all" { return pageCount > 0 ? Array(1...pageCount) : [] }
        return try? PageRanges(text).pages(pageCount: pageCount)
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
            let text = copiesText.trimmingWhitespace()
            guard !text.isEmpty else { return nil }
            guard let copies = Int(text), copiesRange.contains(copies) else {
                return "copies must be a number from \(copiesRange.lowerBound) to \(copiesRange.upperBound)"
            }
            return nil
        case .pages:
            let text = pagesText.trimmingWhitespace()
            guard !text.isEmpty, text.lowercased() != "all" else { return nil }
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
        let copies = Int(copiesText.trimmingWhitespace()) ?? 1
        if copies != 1 { options.copies = copies }
        let pages = pagesText.trimmingWhitespace()
        if !pages.isEmpty && pages.lowercased() != "all" { options.pageRanges = try PageRanges(pages) }
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
        let plan = try printer.plan([document], destination: selected.name, options: try options())
        return try printer.submit(plan)
    }
}

