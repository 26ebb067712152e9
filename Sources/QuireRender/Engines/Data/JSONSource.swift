import QuireTypes

/// What `info` says of a JSON document: its top-level kind, keys or items, nesting depth — or
/// where it stops being JSON.
public struct JSONSummary: Sendable, Hashable, Codable {
    public var topLevel: String
    public var count: Int
    public var depth: Int
    /// Only the first ``JSONOutline/maximumBytes`` (or lines) were read.
    public var isTruncated: Bool
    public var isLines: Bool
    /// Where the file stops being JSON, when it does.
    public var error: JSONOutline.SyntaxError?

    /// Reads `file` (at most ``JSONOutline/maximumBytes``) as JSON, or JSON Lines when `lines`.
    public static func read(_ file: InputFile, lines: Bool = false, limit: Int = JSONOutline.maximumBytes) throws(DocumentError) -> (JSONSummary, JSONOutline?) {
        let limit = min(limit, JSONOutline.maximumBytes)
        let bytes: [UInt8]
        do throws(InputError) { bytes = try file.read(upTo: limit + 1) } catch { throw DocumentError(error) }
        let truncated = bytes.count > limit
        do {
            let outline = try JSONOutline.parse(truncated ? Array(bytes.prefix(limit)) : bytes,
                                                truncated: truncated, lines: lines)
            return (JSONSummary(topLevel: outline.topLevel, count: outline.topLevelCount, depth: outline.depth,
                                isTruncated: outline.isTruncated, isLines: lines, error: nil), outline)
        } catch {
            return (JSONSummary(topLevel: "", count: 0, depth: 0, isTruncated: truncated, isLines: lines, error: error), nil)
        }
    }

    /// "object, 12 keys", "array, 3 items", "JSON Lines, 40 records", "string".
    public var shape: String {
        let more = isTruncated ? " or more" : ""
        switch topLevel {
        case "object": return "object, \(count)\(more) key\(count == 1 && more.isEmpty ? "" : "s")"
        case "array": return "array, \(count)\(more) item\(count == 1 && more.isEmpty ? "" : "s")"
        case "JSON Lines": return "JSON Lines, \(count)\(more) record\(count == 1 && more.isEmpty ? "" : "s")"
        default: return topLevel
        }
    }

    /// The card's facts.
    public var details: [CardRow] {
        if let error { return [CardRow("JSON error", error.description + " (shown as text)")] }
        var details = [CardRow("Top level", shape), CardRow("Depth", "\(depth)")]
        if isTruncated { details.append(CardRow("Shown", "the first \(JSONOutline.maximumBytes >> 20) MiB or \(JSONOutline.maximumLines) lines")) }
        return details
    }

    /// Whether a file of this name is JSON Lines (`.jsonl`, `.ndjson`, `.jsonlines`), which
    /// shared-mime-info types as plain text.
    public static func isJSONLines(name: [UInt8]) -> Bool {
        let lower = String(decoding: name, as: UTF8.self).lowercased()
        return lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonlines")
    }
}

extension RenderEngine {
    /// JSON: pretty-printed, two spaces an indent, on pages; viewers get the same lines and the
    /// outline to fold them. Not JSON after all: the file as text, the error on the card.
    static let json = RenderEngine(name: "json", families: [.json]) { (input) throws(DocumentError) in
        // A thumbnail is page 1: the first 64 KiB are enough.
        let (summary, outline) = try JSONSummary.read(input.file, limit: input.preferEmbeddedPreview ? 64 << 10 : JSONOutline.maximumBytes)
        let lines: [String]
        if let outline {
            lines = outline.text
        } else {
            let bytes: [UInt8]
            do throws(InputError) { bytes = try input.file.read(upTo: input.textByteLimit) } catch { throw DocumentError(error) }
            lines = Array(String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        var opened = Opened(source: try LinePageSource(path: input.file.path, lines: lines))
        opened.details = summary.details
        opened.viewText = lines
        opened.outline = outline
        return opened
    }
}
