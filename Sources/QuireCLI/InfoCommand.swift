import ArgumentParser
import Quire
import QuireRenderService

struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the info card of each file: kind, MIME type, size, dates, pages or pixels, and what Quire can do with it.",
        discussion: """
            Works on many files at once and keeps going past a file that cannot be read; each \
            such file gets one line on standard error and the run exits non-zero (the status of \
            the first failure). Use -- before names that start with a dash.

            With --json, standard output is always a JSON array with one object per file, in \
            the order given; a file that failed has "ok": false and an "error" object.

            Print says whether the content can be printed (as it is, or converted to PDF); \
            whether a printer accepts it now is what `quire actions FILE` tells.

            Examples:
              quire info report.pdf                   # the info card
              quire info --json report.pdf notes.txt  # a JSON array, one object per file
              quire info --password secret locked.pdf
              quire info --show-location photo.jpg    # where it was taken, if it says
              quire info -- -strange-name.pdf         # names starting with '-' after --
            """)

    @Flag(name: .long, help: "Print a JSON array (one object per file) instead of text.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs.", valueName: "password"))
    var password: String?

    @Flag(name: .long, help: "Give a photo's GPS position (latitude, longitude); without it only that the photo records one.")
    var showLocation = false

    @OptionGroup var spreadsheet: SpreadsheetTextOption

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Per-file time limit in seconds (exit status 75; with --json the files before it are kept and its object's error kind is timeout); 0 waits forever (default 60; env QUIRE_TIMEOUT).", valueName: "seconds"))
    var timeoutOption: Int?

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @Argument(help: ArgumentHelp("Files to describe.", valueName: "file"))
    var files: [String]

    /// Seconds per file when neither --timeout nor QUIRE_TIMEOUT says otherwise.
    static let defaultTimeout = 60

    func validate() throws {
        _ = try Watchdog.seconds(timeoutOption, default: Self.defaultTimeout)
        if files.isEmpty { throw ValidationError("Give at least one file.") }
        if let timeoutOption, timeoutOption < 0 { throw ValidationError("--timeout takes a number of seconds (0 for none).") }
    }

    func run() async throws {
        let maximumFileSize = try limits.maximumFileSize()
        let renderLimits = try limits.renderLimits()
        let seconds = try Watchdog.seconds(timeoutOption, default: Self.defaultTimeout)
        try spreadsheet.requireOffice()
        try limits.applyMemoryLimit()
        let status = try Self.describe(files.map(RawArguments.path), json: json, password: password, seconds: seconds,
                                       maximumFileSize: maximumFileSize, renderLimits: renderLimits,
                                       csvAsSpreadsheet: spreadsheet.csvAsSpreadsheet, showLocation: showLocation)
        if let status { throw status.exitCode }
    }

    /// Writes the info cards (or the JSON array) of `paths`; returns the status of the first
    /// failure, nil when every file was described. Shared by the parsed command and the plain
    /// form `quire info FILE...` (``FastPathTable``).
    static func describe(_ paths: [DocumentPath], json: Bool, password: String?, seconds: Int,
                         maximumFileSize: Int64, renderLimits: RenderLimits, csvAsSpreadsheet: Bool = false,
                         showLocation: Bool = false) throws -> ExitStatus? {
        var firstFailure: ExitStatus?
        let styled = Terminal.stylesStandardOutput
        // The JSON array is written a file at a time: a file that runs out of time ends it with
        // that file's object, so what was learnt of the files before it is kept.
        let array = json ? InfoRecord.ArrayWriter() : nil
        for (index, path) in paths.enumerated() {
            let tail = try array?.closingTail(InfoRecord(path: path, error: .timeout(seconds: seconds))) ?? []
            let record = try Watchdog.limiting(seconds: seconds, path: path, standardOutputTail: tail) { () throws -> InfoRecord? in
                var record: InfoRecord?
                var opened: Document?
                do {
                    // An empty file has a type (by its name) and an info card like any other.
                    let document = try Document(path: path, maximumFileSize: maximumFileSize, limits: renderLimits,
                                                allowEmpty: true, csvAsSpreadsheet: csvAsSpreadsheet, interpreters: CommandInterpreters.forDocuments)
                    opened = document
                    let info = try document.info(password: password, showLocation: showLocation)
                    if let problem = info.problem {
                        Terminal.error(problem.hinted)
                        firstFailure = firstFailure ?? ExitStatus.of(problem)
                    }
                    if json {
                        record = InfoRecord(info: info)
                    } else {
                        Watchdog.settle()
                        Terminal.out((index > 0 ? "\n" : "") + InfoCardFormatter.card(info, styled: styled))
                    }
                } catch let error as InputError {
                    Terminal.error(error.hinted)
                    firstFailure = firstFailure ?? ExitStatus.of(error)
                    record = InfoRecord(path: path, error: InfoRecord.ErrorRecord(error))
                } catch let error as DocumentError {
                    Terminal.error(error.hinted)
                    firstFailure = firstFailure ?? ExitStatus.of(error)
                    record = InfoRecord(path: path, document: opened, error: InfoRecord.ErrorRecord(error))
                }
                // The file's work is done: its time limit ends before its object is written.
                Watchdog.settle()
                return record
            }
            if let array, let record { try array.write(record) }
        }
        array?.close()
        return firstFailure
    }
}
