import ArgumentParser
import Quire

struct CanPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-print",
        abstract: "Exit 0 if every file given can be printed now, 1 if not. Prints nothing (for hooks and scripts).",
        discussion: """
            With several files (a file manager's selection) the answer is 0 only when all of them \
            can be printed. Use `quire actions FILE` to see why a file cannot be printed.

            Examples:
              quire can-print report.pdf && echo printable   # silent, exit 0/1, for hooks
            """)

    @Argument(help: ArgumentHelp("The files.", valueName: "file"))
    var files: [String] = []

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file.") }
    }

    func run() async throws {
        // A limit that cannot be read answers "no", like a file that cannot be opened. The first
        // file that cannot print ends the answer.
        let system = PrintSystem(timeout: PrintSystem.interactiveTimeout)
        guard let maximumFileSize = try? limits.maximumFileSize(), let renderLimits = try? limits.renderLimits(),
              files.allSatisfy({ Self.canPrint(RawArguments.path($0), maximumFileSize: maximumFileSize, limits: renderLimits,
                                               printSystem: system) }) else {
            throw ExitCode(1)
        }
    }

    /// Whether `path` can be printed now. Shared by the parsed command and the plain form
    /// `quire can-print [--] FILE...` (``FastPathTable``). The print system is asked with the
    /// interactive time limit: a scheduler that does not answer is a "no" within two seconds.
    static func canPrint(_ path: DocumentPath, maximumFileSize: Int64, limits: RenderLimits,
                         printSystem: PrintSystem) -> Bool {
        guard let document = try? Document(path: path, maximumFileSize: maximumFileSize, limits: limits, interpreters: CommandInterpreters.forDocuments) else { return false }
        return DocumentInteraction.canPrint(document, printSystem: printSystem)
    }
}
