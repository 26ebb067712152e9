/// The named limits that protect Quire from hostile or absurd input. Each limit's name is also
/// the CLI's option for it and, upper-cased, its environment variable (`QUIRE_MAX_PIXELS`).
/// Messages about a limit end with "more than the maximum of VALUE UNIT" and the error carries
/// `Remedy.raise(limit)`, so a front-end can say what to raise.
public enum Limit: String, Sendable, CaseIterable, Codable {
    /// Input files larger than this many bytes are refused.
    case fileSize = "max-file-size"
    /// Images declaring more pixels are refused before decoding.
    case pixels = "max-pixels"
    /// At most this many pages are rendered for one request.
    case pages = "max-pages"
    /// At most this many bytes are inflated from one container (zip bombs).
    case inflatedSize = "max-inflated-size"
    /// Containers with more entries are refused.
    case entries = "max-entries"
    /// Per-file time limit in seconds.
    case time = "timeout"
    /// Memory (address space) in MiB a process decoding documents may use.
    case memory = "memory-limit"

    /// The environment variable read when the option is not given, e.g. `QUIRE_MAX_PIXELS`.
    /// (The names are ASCII: upper-cased byte by byte. `String.uppercased()` applies Unicode's
    /// case mapping, ~12 k instructions a name, and every short path asks for all six.)
    public var environmentVariable: String {
        let name = rawValue.utf8.map { byte -> UInt8 in
            if byte == UInt8(ascii: "-") { return UInt8(ascii: "_") }
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 0x20 : byte
        }
        return "QUIRE_" + String(decoding: name, as: UTF8.self)
    }

    /// "more than the maximum of VALUE UNIT".
    public func exceeded(_ value: some BinaryInteger, _ unit: String) -> String {
        "more than the maximum of \(value) \(unit)"
    }
}
