import QuireRender

/// What a person asked to change in a document, sent to the worker that writes it
/// (``RenderRequestKind/saveChanges``): form values for now. The worker applies them all or
/// none, and answers with the saved update (``PDFUpdate``), never writing the file itself.
public struct DocumentChanges: Sendable, Hashable {
    /// One form field's new value, in the form's words (``FormField``).
    public struct FormValue: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var formValues: [FormValue]

    public init(formValues: [FormValue] = []) {
        self.formValues = formValues
    }

    /// Most values one request carries.
    static let maximumValues = 100_000

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(formValues.count))
        for value in formValues {
            writer.string(value.name)
            writer.string(value.value)
        }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let count = try reader.count(atMost: Self.maximumValues)
        formValues = []
        for _ in 0..<count {
            formValues.append(FormValue(name: try reader.string(), value: try reader.string()))
        }
    }

    /// The request frame: `document` changed as this says.
    package func frame(for document: DocumentRequest) -> [UInt8] {
        var writer = WireWriter()
        writer.integer(RenderRequestKind.saveChanges.rawValue)
        document.write(to: &writer)
        write(to: &writer)
        return writer.frame
    }
}
