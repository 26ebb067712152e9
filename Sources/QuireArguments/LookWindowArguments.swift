/// `quire-look`'s command line, which `quire look` writes (its window launcher) and the window
/// executable reads — one description for both sides:
///
///     quire-look [--password PASSWORD] [--no-resume] [--print] [--csv-as-spreadsheet] [--render-worker-argument ARG]... [--timeout S] [--] FILE...
///     quire-look --service ...     (the previewer service: ``PreviewerServiceArguments``)
///
/// The render worker's own options pass through as values (`--render-worker-argument
/// --max-pixels`), so values here are any word. `--` is written before the files, whose names
/// are kept as the bytes given.
package struct LookWindowArguments: Equatable, Sendable {
    package var password: String?
    package var resume = true
    package var printSheet = false
    /// The render worker's `argv`; empty renders in the window's own process.
    package var renderWorker: [String] = []
    /// Seconds a page may take to render in the worker.
    package var timeout = 30.0
    package var files: [[UInt8]]
    /// CSV and TSV files laid out by LibreOffice Calc (`quire look --csv-as-spreadsheet`).
    package var csvAsSpreadsheet = false

    package init(files: [[UInt8]], password: String? = nil, resume: Bool = true, printSheet: Bool = false,
                 renderWorker: [String] = [], timeout: Double = 30) {
        self.files = files
        self.password = password
        self.resume = resume
        self.printSheet = printSheet
        self.renderWorker = renderWorker
        self.timeout = timeout
    }

    /// What `quire-look` was started for.
    package enum Invocation: Equatable, Sendable {
        case window(LookWindowArguments)
        /// `--service`: the previewer service.
        case service(PreviewerServiceArguments)
    }

    /// The window: options, then the files (after `--`, any names; before it, a word starting
    /// with `-` is an unknown option).
    package static let window = ArgumentForm(
        options: [
            .option("--password", value: .anyWord, repeatable: true),
            .flag("--no-resume", repeatable: true),
            .flag("--print", repeatable: true),
            .flag("--csv-as-spreadsheet", repeatable: true),
            .option("--render-worker-argument", value: .anyWord, repeatable: true),
            .option("--timeout", value: .number(minimum: 1), repeatable: true, needs: "a number of seconds"),
        ],
        operands: ArgumentOperands(name: "file", count: 1...Int.max))

    /// Reads a whole `argv` (the program's name first).
    package static func parse(_ arguments: [[UInt8]]) throws(ArgumentMismatch) -> Invocation {
        if PreviewerServiceArguments.form.isNamed(by: arguments) {
            return .service(try PreviewerServiceArguments.parse(arguments))
        }
        let parsed = try window.parse(arguments)
        var window = LookWindowArguments(
            files: parsed.operands, password: parsed.text("--password"), resume: !parsed.isSet("--no-resume"),
            printSheet: parsed.isSet("--print"),
            renderWorker: parsed.values("--render-worker-argument").map { String(decoding: $0, as: UTF8.self) },
            timeout: parsed.number("--timeout") ?? 30)
        window.csvAsSpreadsheet = parsed.isSet("--csv-as-spreadsheet")
        return .window(window)
    }

    /// The words after the program's name that ``parse(_:)`` reads back as these arguments.
    package func arguments() -> [[UInt8]] {
        var words: [[UInt8]] = []
        if let password { words += [Array("--password".utf8), Array(password.utf8)] }
        if !resume { words.append(Array("--no-resume".utf8)) }
        if printSheet { words.append(Array("--print".utf8)) }
        if csvAsSpreadsheet { words.append(Array("--csv-as-spreadsheet".utf8)) }
        for argument in renderWorker { words += [Array("--render-worker-argument".utf8), Array(argument.utf8)] }
        // Whole seconds as an integer ("30"), as quire has always written them.
        let seconds = timeout.rounded() == timeout && abs(timeout) < 1e15 ? String(Int(timeout)) : String(timeout)
        words += [Array("--timeout".utf8), Array(seconds.utf8)]
        words.append(Array("--".utf8))
        words += files
        return words
    }
}
