/// Which actions apply to a document right now — Preview, Thumbnail, Print — each with the
/// reason when it does not. Print needs printable content *and* a printer accepting jobs.
///
/// ```swift
/// let actions = DocumentInteraction(document: try Document(path: "report.pdf"))
/// if !actions.print.isAvailable { print(actions.print.reason!) }   // "no printers are set up"
/// ```
public struct DocumentInteraction: Sendable {
    /// One action and whether it is available.
    public struct Action: Sendable, Hashable, Codable {
        public let name: String
        public let isAvailable: Bool
        /// Why the action is unavailable; nil when available.
        public let reason: String?
        /// Extra detail when available ("sent as it is", "converted to PDF", the printer).
        public let detail: String?
    }

    public let preview: Action
    public let thumbnail: Action
    public let print: Action
    /// The print system's state behind ``print``.
    public let printAvailability: PrintAvailability

    public var all: [Action] { [preview, thumbnail, print] }

    /// Evaluates the actions; asks `printSystem` whether any printer accepts jobs.
    public init(document: Document, printSystem: PrintSystem = PrintSystem(),
                conversion: PrintConversion = .standard) {
        var capabilities = document.capabilities
        capabilities.print = Self.printCapability(capabilities.print, of: document, conversion: conversion)
        preview = Action(name: "Preview", isAvailable: capabilities.preview.isSupported,
                         reason: capabilities.preview.reason, detail: capabilities.preview.note)
        thumbnail = Action(name: "Thumbnail", isAvailable: capabilities.thumbnail.isSupported,
                           reason: capabilities.thumbnail.reason, detail: nil)
        // Only ask the scheduler when the content could print at all.
        let availability: PrintAvailability = capabilities.print.isSupported
            ? printSystem.availability() : .available([])
        printAvailability = availability
        print = Self.printAction(content: capabilities.print, system: availability)
    }

    /// Whether ``print`` would be available, without the other actions or the destination list:
    /// one request for the queues' state (``PrintSystem/acceptsJobs()``). `quire can-print`
    /// asks this each time a file manager opens a context menu.
    package static func canPrint(_ document: Document, printSystem: PrintSystem = PrintSystem(),
                                 conversion: PrintConversion = .standard) -> Bool {
        printCapability(document, conversion: conversion).isSupported && printSystem.acceptsJobs()
    }

    /// The document's print capability, unsupported when it needs a conversion `conversion`
    /// cannot do.
    static func printCapability(_ document: Document, conversion: PrintConversion) -> PrintCapability {
        printCapability(document.capabilities.print, of: document, conversion: conversion)
    }

    /// ``printCapability(_:conversion:)`` from the document's capabilities already computed
    /// (an office file's are read from the file).
    static func printCapability(_ print: PrintCapability, of document: Document, conversion: PrintConversion) -> PrintCapability {
        if case .byConversion = print, !conversion.isAvailable {
            return .unsupported(
                reason: "printing \(document.contentType.localizedDescription) files needs conversion to PDF, which this converter cannot do")
        }
        return print
    }

    /// Print is available only when the content is printable and a printer accepts jobs.
    public static func printAction(content: PrintCapability, system: PrintAvailability) -> Action {
        switch content {
        case .unsupported(let reason):
            return Action(name: "Print", isAvailable: false, reason: reason, detail: nil)
        case .direct, .byConversion:
            if let reason = system.reason {
                return Action(name: "Print", isAvailable: false, reason: reason, detail: nil)
            }
            var detail = content == .direct ? "sent as it is" : "converted to PDF"
            if case .available(let destinations) = system {
                let chosen = destinations.first(where: \.isDefault) ?? destinations.first
                if let chosen { detail += "; printer \(chosen.fullName)" }
                if destinations.count > 1 { detail += " (of \(destinations.count) printers accepting jobs)" }
            }
            return Action(name: "Print", isAvailable: true, reason: nil, detail: detail)
        }
    }
}
