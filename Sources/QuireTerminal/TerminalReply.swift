/// What a terminal answered to the graphics probe (TerminalGraphicsProbe in the CLI): a kitty
/// graphics reply, XTVERSION (its name), the cell size in pixels (CSI 16 t → `ESC [ 6 ; h ; w t`)
/// and primary device attributes (DA1, `ESC [ ? … c`). Pure parsing of untrusted bytes, kept
/// apart from the terminal session so that it can be tested and fuzzed (Fuzz/TerminalRepliesFuzzer).
package struct TerminalReply: Sendable, Equatable {
    /// Cell size in pixels, when the terminal told it (both positive).
    package let cellWidth: Int?
    package let cellHeight: Int?
    /// Whether the reply holds a DA1 answer (which ends the wait for replies).
    package let hasDeviceAttributes: Bool
    /// DA1's parameters (4 means sixel).
    package let deviceAttributes: [Int]
    /// XTVERSION's text (`ESC P > | name ESC \`), "" when absent.
    package let version: String
    /// Whether the kitty graphics query was answered OK.
    package let kittyGraphics: Bool

    package init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var cellWidth: Int?, cellHeight: Int?
        if let range = text.firstRange(of: "\u{1B}[6;") {
            let rest = text[range.upperBound...]
            if let end = rest.firstIndex(of: "t") {
                let numbers = rest[..<end].split(separator: ";").compactMap { Int($0) }
                if numbers.count == 2, numbers[0] > 0, numbers[1] > 0 { cellHeight = numbers[0]; cellWidth = numbers[1] }
            }
        }
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        hasDeviceAttributes = Self.hasDeviceAttributes(bytes)
        deviceAttributes = Self.deviceAttributes(text)
        version = text.firstRange(of: "\u{1B}P>|").map { String(text[$0.upperBound...].prefix { $0 != "\u{1B}" }) } ?? ""
        kittyGraphics = text.contains("\u{1B}_Gi=31;OK")
    }

    /// Whether a DA1 answer (`ESC [ ? … c`) is in `bytes`.
    package static func hasDeviceAttributes(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.firstRange(of: "\u{1B}[?") else { return false }
        return text[start.upperBound...].contains { $0 == "c" }
    }

    package static func deviceAttributes(_ text: String) -> [Int] {
        guard let start = text.firstRange(of: "\u{1B}[?") else { return [] }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "c") else { return [] }
        return rest[..<end].split(separator: ";").compactMap { Int($0) }
    }
}
