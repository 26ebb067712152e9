import QuireRender

/// A form's facts on the wire (``DocumentReply/form(_:)``).
extension FormFacts {
    static let maximumFields = 100_000

    func write(to writer: inout WireWriter) {
        writer.integer(isXFAOnly ? 1 : 0)
        writer.optionalString(fillingForbidden)
        writer.integer(Int64(fields.count))
        for field in fields { Self.write(field, to: &writer) }
    }

    /// One field: its name, kind, value, choices, read-only, page and editable.
    static func write(_ field: FormField, to writer: inout WireWriter) {
        writer.string(field.name)
        writer.string(field.kind.rawValue)
        writer.optionalString(field.value)
        writer.integer(Int64(field.choices.count))
        for choice in field.choices { writer.string(choice) }
        writer.integer(field.isReadOnly ? 1 : 0)
        writer.integer(Int64(field.page))
        writer.integer(field.isEditable ? 1 : 0)
    }

    /// One field as ``write(_:to:)`` wrote it.
    static func field(from reader: inout WireReader) throws(WireReader.Malformed) -> FormField {
        let name = try reader.string()
        guard let kind = FormField.Kind(rawValue: try reader.string()) else { throw WireReader.Malformed() }
        let value = try reader.optionalString()
        let choiceCount = try reader.count(atMost: Self.maximumFields)
        var choices: [String] = []
        for _ in 0..<choiceCount { choices.append(try reader.string()) }
        let readOnly = try reader.integer() == 1
        let page = try reader.integer()
        guard page >= 0, page <= Int64(Int32.max) else { throw WireReader.Malformed() }
        let editable = try reader.integer() == 1
        return FormField(name: name, kind: kind, value: value, choices: choices, isReadOnly: readOnly, page: Int(page), isEditable: editable)
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let xfa = try reader.integer() == 1
        let forbidden = try reader.optionalString()
        let count = try reader.count(atMost: Self.maximumFields)
        var fields: [FormField] = []
        for _ in 0..<count { fields.append(try Self.field(from: &reader)) }
        self.init(fields: fields, isXFAOnly: xfa, fillingForbidden: forbidden)
    }
}

/// A saved update on the wire (``DocumentReply/saved(_:)``).
extension PDFUpdate {
    func write(to writer: inout WireWriter) {
        switch self {
        case .incremental(let size, let appended):
            writer.integer(1)
            writer.integer(size)
            writer.data(appended)
        case .rewritten(let bytes):
            writer.integer(2)
            writer.data(bytes)
        case .image(let bytes):
            writer.integer(3)
            writer.data(bytes)
        }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        switch try reader.integer() {
        case 1:
            let size = try reader.integer()
            guard size >= 0 else { throw WireReader.Malformed() }
            self = .incremental(originalSize: size, appended: try reader.data())
        case 2: self = .rewritten(try reader.data())
        case 3: self = .image(try reader.data())
        default: throw WireReader.Malformed()
        }
    }
}
