import ArgumentParser
import Quire

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
            """)

    @Flag(name: .long, help: "Print a JSON array (one object per file) instead of text.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Password for encrypted PDFs.", valueName: "password"))
    var password: String?

    @Argument(help: ArgumentHelp("Files to describe.", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file.") }
    }

    func run() async throws {
        var firstFailure: ExitStatus?
        var records: [InfoRecord] = []
        let styled = Terminal.stylesStandardOutput
        for (index, argument) in files.enumerated() {
            let path = RawArguments.path(argument)
            var opened: Document?
            do {
                let document = try Document(path: path)
                opened = document
                let info = try document.info(password: password)
                if let problem = info.problem {
                    Terminal.error(problem.description)
                    firstFailure = firstFailure ?? ExitStatus.of(problem)
                }
                if json {
                    records.append(InfoRecord(info: info))
                } else {
                    Terminal.out((index > 0 ? "\n" : "") + InfoCardFormatter.card(info, styled: styled))
                }
            } catch let error as InputError {
                Terminal.error(error.description)
                firstFailure = firstFailure ?? ExitStatus.of(error)
                records.append(InfoRecord(path: path, error: InfoRecord.ErrorRecord(error)))
            } catch let error as DocumentError {
                Terminal.error(error.description)
                firstFailure = firstFailure ?? ExitStatus.of(error)
                records.append(InfoRecord(path: path, document: opened, error: InfoRecord.ErrorRecord(error)))
            }
        }
        if json { Terminal.out(try InfoRecord.encode(records) + "\n") }
        if let firstFailure { throw firstFailure.exitCode }
    }
}
