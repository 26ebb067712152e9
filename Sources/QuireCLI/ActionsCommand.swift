import ArgumentParser
import FoundationEssentials
import Quire

struct ActionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions",
        abstract: "Show which of Preview, Thumbnail and Print apply to a file, each with its reason.",
        discussion: """
            Print applies only when the content is printable (directly, or converted to PDF) and \
            at least one printer accepts jobs; otherwise the reason says what to fix: no printers \
            are set up, the print system is not running, every printer is rejecting jobs, or the \
            file type cannot be printed.

            Examples:
              quire actions report.pdf           # Preview / Thumbnail / Print, each with its reason
              quire actions --json photo.jpg
            """)

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Time limit in seconds (exit status 75); 0 waits forever (default 60; env QUIRE_TIMEOUT).", valueName: "seconds"))
    var timeoutOption: Int?

    @OptionGroup(title: "Limits") var limits: LimitOptions

    @Argument(help: ArgumentHelp("The file.", valueName: "file"))
    var file: String

    func validate() throws {
        _ = try Watchdog.seconds(timeoutOption, default: 60)
    }

    func run() async throws {
        let path = RawArguments.path(file)
        try limits.applyMemoryLimit()
        Watchdog.arm(seconds: try Watchdog.seconds(timeoutOption, default: 60), path: path)
        let document: Document
        do {
            document = try Document(path: path, maximumFileSize: try limits.maximumFileSize(),
                                    limits: try limits.renderLimits(), interpreters: CommandInterpreters.forDocuments)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw PrintFailure.report(error).exitCode
        }
        let actions = DocumentInteraction(document: document, printSystem: PrintSystem(timeout: PrintSystem.interactiveTimeout))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.out(String(decoding: try encoder.encode(actions.all), as: UTF8.self) + "\n")
            return
        }
        for action in actions.all {
            let padded = Terminal.padded(action.name, to: 10)
            if action.isAvailable {
                Terminal.out("\(padded) yes" + (action.detail.map { " (\($0))" } ?? "") + "\n")
            } else {
                Terminal.out("\(padded) no: \(action.reason ?? "unavailable")\n")
            }
        }
    }
}
