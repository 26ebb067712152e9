import FoundationEssentials
import Quire
import QuireRenderService

/// `quire form`'s output: the fields as a table for people, or as JSON (a stable schema:
/// `file`, `xfaOnly`, `fillable`, `reason`, and `fields` with `name`, `type`, `value` (null when
/// empty), `choices`, `readOnly`, `page`, `editable`).
enum FormRecord {
    struct Document: Encodable {
        var file: String
        var xfaOnly: Bool
        var fillable: Bool
        var reason: String?
        var fields: [Field]
    }

    struct Field: Encodable {
        var name: String
        var type: String
        var value: String?
        var choices: [String]
        var readOnly: Bool
        var page: Int
        var editable: Bool

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(type, forKey: .type)
            try container.encode(value, forKey: .value)   // null, not left out
            try container.encode(choices, forKey: .choices)
            try container.encode(readOnly, forKey: .readOnly)
            try container.encode(page, forKey: .page)
            try container.encode(editable, forKey: .editable)
        }

        enum CodingKeys: String, CodingKey { case name, type, value, choices, readOnly, page, editable }
    }

    /// A value in `--set-from`'s JSON object.
    enum InputValue: Decodable {
        case text(String)
        case flag(Bool)
        case number(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        var text: String {
            switch self {
            case .text(let text): return text
            case .flag(let flag): return flag ? "on" : "off"
            case .number(let number):
                if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
                return String(number)
            }
        }
    }

    static func json(_ facts: FormFacts, path: DocumentPath) -> String {
        let document = Document(
            file: path.jsonText, xfaOnly: facts.isXFAOnly, fillable: facts.fillingForbidden == nil && !facts.isXFAOnly,
            reason: facts.fillingForbidden,
            fields: facts.fields.map {
                Field(name: $0.name, type: $0.kind.rawValue, value: $0.value, choices: $0.choices, readOnly: $0.isReadOnly,
                      page: $0.page, editable: $0.isEditable)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self) + "\n"
    }

    /// Columns: name, type, value, choices, read-only.
    static func table(_ facts: FormFacts) -> String {
        if facts.fields.isEmpty { return "The PDF has no form fields.\n" }
        let rows = facts.fields.map { field in
            [TerminalEscaping.escaped(field.name), field.kind.rawValue, TerminalEscaping.escaped(field.value ?? "—"),
             field.choices.map { TerminalEscaping.escaped($0) }.joined(separator: ", "), field.isReadOnly ? "read-only" : ""]
        }
        let header = ["NAME", "TYPE", "VALUE", "CHOICES", ""]
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in [header] + rows {
            var line = ""
            for column in 0..<5 {
                line += column < 4 ? Terminal.padded(row[column], to: widths[column] + 2) : row[column]
            }
            while line.hasSuffix(" ") { line.removeLast() }
            text += line + "\n"
        }
        if let reason = facts.fillingForbidden { text += "Cannot be filled: \(reason).\n" }
        return text
    }
}
