import ArgumentParser
import FoundationEssentials
import Quire

/// The input limits shared by the commands that read documents. Each option falls back to its
/// environment variable (`QUIRE_MAX_PIXELS`…, see ``Limit``), then to the default. Messages
/// about a limit name its option, so the user knows what to raise.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong(Limit.fileSize.rawValue), help: ArgumentHelp(
        "Refuse files larger than this (a thumbnail batch skips them): bytes, or with K, M, G suffix (default 1G; env QUIRE_MAX_FILE_SIZE).",
        valueName: "size"))
    var maxFileSize: String?

    @Option(name: .customLong(Limit.pixels.rawValue), help: ArgumentHelp(
        "Refuse images that declare more pixels than this, before decoding (default 100000000; env QUIRE_MAX_PIXELS).",
        valueName: "n"))
    var maxPixels: Int?

    @Option(name: .customLong(Limit.pages.rawValue), help: ArgumentHelp(
        "Render at most this many pages for one request (default 500; env QUIRE_MAX_PAGES).", valueName: "n"))
    var maxPages: Int?

    @Option(name: .customLong(Limit.inflatedSize.rawValue), help: ArgumentHelp(
        "Inflate at most this much from one container (ODF, OOXML, EPUB) or one page of a comic book: bytes, or with K, M, G suffix (default 64M; env QUIRE_MAX_INFLATED_SIZE).",
        valueName: "size"))
    var maxInflatedSize: String?

    @Option(name: .customLong(Limit.entries.rawValue), help: ArgumentHelp(
        "Refuse containers with more entries than this (default 10000; env QUIRE_MAX_ENTRIES).", valueName: "n"))
    var maxEntries: Int?

    @Option(name: .customLong(Limit.memory.rawValue), help: ArgumentHelp(
        "Memory in MiB for reading a document (per worker with --batch; at least 64; default 2048; env QUIRE_MEMORY_LIMIT).",
        valueName: "MiB"))
    var memoryLimit: Int?

    /// Default of ``Limit/memory`` in MiB: the batch's worker limit, and every command's.
    static let defaultMemoryMiB = 2048

    /// The memory limit in MiB: the option, else `QUIRE_MEMORY_LIMIT`, else 2048.
    func memoryMiB() throws -> Int {
        guard let text = given(.memory, memoryLimit.map(String.init)) else { return Self.defaultMemoryMiB }
        let value = try Self.count(text, name: source(.memory, memoryLimit.map(String.init)))
        if value < 64 { throw ValidationError("\(source(.memory, memoryLimit.map(String.init))) must be at least 64 MiB.") }
        return value
    }

    /// Makes this process read documents under the memory limit (``MemoryGuard``).
    func applyMemoryLimit() throws {
        MemoryGuard.mebibytes = try memoryMiB()
    }

    /// Default of ``Limit/fileSize`` for the command-line tool.
    static let defaultMaximumFileSize: Int64 = 1 << 30

    /// The value given for `limit`: the option, else its environment variable (read with getenv:
    /// `ProcessInfo.environment` copies the whole environment into a dictionary on every call,
    /// ~0.3 M instructions each, 4 M of a `quire print` run).
    private func given(_ limit: Limit, _ option: String?) -> String? {
        option ?? Terminal.environment(limit.environmentVariable).flatMap { $0.isEmpty ? nil : $0 }
    }

    private func source(_ limit: Limit, _ option: String?) -> String {
        option != nil ? limit.option : limit.environmentVariable
    }

    /// The maximum input size in bytes.
    func maximumFileSize() throws -> Int64 {
        guard let text = given(.fileSize, maxFileSize) else { return Self.defaultMaximumFileSize }
        return try Self.size(text, name: source(.fileSize, maxFileSize))
    }

    /// The render limits: the options over the environment over ``RenderLimits/standard``.
    func renderLimits() throws -> RenderLimits {
        var limits = RenderLimits.standard
        if let text = given(.pixels, maxPixels.map(String.init)) {
            limits.maximumImagePixels = try Self.count(text, name: source(.pixels, maxPixels.map(String.init)))
        }
        if let text = given(.pages, maxPages.map(String.init)) {
            limits.maximumPages = try Self.count(text, name: source(.pages, maxPages.map(String.init)))
        }
        if let text = given(.inflatedSize, maxInflatedSize) {
            let bytes = try Self.size(text, name: source(.inflatedSize, maxInflatedSize))
            limits.maximumInflatedBytes = Int(clamping: bytes)
        }
        if let text = given(.entries, maxEntries.map(String.init)) {
            limits.maximumArchiveEntries = try Self.count(text, name: source(.entries, maxEntries.map(String.init)))
        }
        return limits
    }

    func validate() throws {
        _ = try maximumFileSize()
        _ = try renderLimits()
        _ = try memoryMiB()
    }

    /// A positive whole number.
    static func count(_ text: String, name: String) throws -> Int {
        guard let value = Int(text.trimmingWhitespace()), value > 0 else {
            throw ValidationError("\(name) must be a positive whole number (got '\(text)').")
        }
        return value
    }

    /// Bytes, optionally with a K, M, G or T suffix (powers of 1024).
    static func size(_ text: String, name: String) throws -> Int64 {
        let trimmed = text.trimmingWhitespace().uppercased()
        let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(trimmed)
        var multiplier: Int64 = 1
        if let last = trimmed.last, let factor = multipliers[last] {
            multiplier = factor
            digits = trimmed.dropLast()
        }
        guard let value = Int64(digits), value > 0 else {
            throw ValidationError("\(name) must be a positive number of bytes, optionally with K, M or G (got '\(text)').")
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? Int64.max : product
    }
}
