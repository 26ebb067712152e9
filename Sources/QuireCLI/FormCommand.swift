import ArgumentParser
import FoundationEssentials
import Quire
import QuireRenderService

struct FormCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "form",
        abstract: "List a PDF form's fields, or fill them in.",
        discussion: """
            Without --set, lists the form's fields: name, type (text, checkbox, radio, combo, list, \
            push-button, signature), value, the values a choice offers and whether the field is \
            read-only; --json prints them as JSON. With --set NAME=VALUE (repeatable) or \
            --set-from FILE (a JSON object of names and values), fills the fields and saves the PDF \
            to -o OUT or over itself with --in-place. A check box takes on or off; a radio group \
            takes the export name of one of its buttons (their position, 1, 2, …, where they have \
            none) or off; a combo or list box takes one of its \
            items. Values get appearance streams, so every reader shows them. --flatten (with or \
            without values) then makes the form part of its pages: each field is drawn as it \
            looks and is no longer a field (a signed PDF is refused). The PDF is saved as \
            an incremental update: its original bytes stay first and unchanged, so an existing \
            digital signature stays valid. The file is read and written by a sandboxed render \
            worker; the result is put in place atomically and keeps the file's mode, and nothing \
            is written when a field is unknown, a value is not offered or the file changed \
            meanwhile. Exits 65 for an unknown field, a value a field does not take, an XFA-only \
            form, a PDF whose permissions forbid filling in, or a damaged PDF; 66 when the file \
            cannot be read; 73 when the output cannot be written.

            Examples:
              quire form form.pdf
              quire form form.pdf --json
              quire form form.pdf --set name=Ada --set agree=on -o filled.pdf
              quire form form.pdf --set colour=Blue --in-place
              quire form form.pdf --set name=Ada --flatten -o final.pdf
            """)

    @Argument(help: ArgumentHelp("The PDF form.", valueName: "file"))
    var file: String

    @Flag(name: .long, help: "List the fields as JSON.")
    var json = false

    @Option(name: .customLong("set"), help: ArgumentHelp("Give field NAME the value VALUE (repeatable).", valueName: "name=value"))
    var values: [String] = []

    @Option(name: .customLong("set-from"), help: ArgumentHelp("Read field values from a JSON object of names and values.", valueName: "file"))
    var valuesFile: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Save the filled PDF here.", valueName: "file"))
    var output: String?

    @Flag(name: .customLong("in-place"), help: "Save the filled PDF over the file itself.")
    var inPlace = false

    @Flag(name: .long, help: "Make the form part of its pages: fields drawn as they look, no longer fields.")
    var flatten = false

    @Option(name: .long, help: ArgumentHelp("The password of an encrypted PDF.", valueName: "password"))
    var password: String?

    func validate() throws {
        let filling = !values.isEmpty || valuesFile != nil || flatten
        if filling && (output == nil) == !inPlace {
            throw ValidationError("Give one of -o FILE or --in-place to save the \(flatten ? "flattened" : "filled") form.")
        }
        if !filling && (output != nil || inPlace) {
            throw ValidationError("-o and --in-place go with --set, --set-from or --flatten.")
        }
        if filling && json { throw ValidationError("--json lists the fields; it does not go with --set or --flatten.") }
        for value in values where !value.contains("=") {
            throw ValidationError("--set takes NAME=VALUE, not \(value.debugDescription).")
        }
    }

    func run() async throws {
        let path = RawArguments.path(file)
        let original: InputFile
        do { original = try InputFile(path: path) } catch { throw ExitStatus.report(error)! }
        let request = DocumentRequest(path: path, password: password, maximumFileSize: max(original.size, 1))
        let client = RenderClient(command: WorkerCommand(executable: ProcessControl.ownExecutable), timeout: 120)
        defer { client.stop() }
        if values.isEmpty && valuesFile == nil && !flatten {
            let facts: FormFacts
            do { facts = try client.formFields(request) } catch { throw Self.fail(error, path: path) }
            if facts.isXFAOnly {
                throw Self.fail(RenderProblem(.unsupported, "XFA forms are not supported (this PDF's form is XFA only)"), path: path)
            }
            if json { return Terminal.out(FormRecord.json(facts, path: path)) }
            Terminal.out(FormRecord.table(facts))
            return
        }
        var changes = DocumentChanges(flatten: flatten)
        if let valuesFile { changes.formValues += try Self.values(from: RawArguments.path(valuesFile)) }
        for value in values {
            let equals = value.firstIndex(of: "=")!
            changes.formValues.append(.init(name: String(value[..<equals]), value: String(value[value.index(after: equals)...])))
        }
        let update: PDFUpdate
        do { update = try client.saveChanges(request, changes) } catch { throw Self.fail(error, path: path) }
        do {
            try DocumentUpdateWriter.write(update, original: original, to: output.map(RawArguments.path))
        } catch {
            throw ExitStatus.report(error)!
        }
    }

    /// Values from a JSON object: strings as they are, true/false as on/off, numbers as written.
    static func values(from path: DocumentPath) throws -> [DocumentChanges.FormValue] {
        let bytes: [UInt8]
        do {
            let file = try InputFile(path: path)
            bytes = try file.read(upTo: Int(min(file.size, 16 << 20)))
        } catch {
            throw ExitStatus.report(error)!
        }
        let object: [String: FormRecord.InputValue]
        do { object = try JSONDecoder().decode([String: FormRecord.InputValue].self, from: Data(bytes)) } catch {
            Terminal.error("\(path): not a JSON object of field names and values (strings, numbers or true/false)")
            throw ExitStatus.dataError.exitCode
        }
        let values = object.keys.sorted().map { DocumentChanges.FormValue(name: $0, value: object[$0]!.text) }
        return values
    }

    /// One line for the worker's problem; the exit status.
    static func fail(_ problem: RenderProblem, path: DocumentPath) -> ExitCode {
        switch problem.kind {
        case .passwordRequired: Terminal.error("\(path): the PDF is password-protected (give the password with --password)")
        case .wrongPassword: Terminal.error("\(path): the password is not correct for this PDF")
        default: Terminal.error("\(path): \(problem.message)")
        }
        switch problem.kind {
        case .unreadable: return ExitStatus.noInput.exitCode
        case .workerFailed, .cancelled: return ExitStatus.software.exitCode
        case .damaged, .passwordRequired, .wrongPassword, .unsupported, .limitExceeded: return ExitStatus.dataError.exitCode
        }
    }
}
