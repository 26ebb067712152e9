import ArgumentParser
import Quire

struct CanPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-print",
        abstract: "Exit 0 if every file given can be printed now, 1 if not. Prints nothing (for hooks and scripts).",
        discussion: """
            With several files (a file manager's selection) the answer is 0 only when all of them \
            can be printed. Use `quire actions FILE` to see why a file cannot be printed.
            """)

    @Argument(help: ArgumentHelp("The files.", valueName: "file"))
    var files: [String] = []

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("Give at least one file.") }
    }

    func run() async throws {
        // The first file that cannot print ends the answer.
        for file in files {
            guard let document = try? Document(path: RawArguments.path(file), maximumFileSize: limits.maximumFileSize(),
                                               limits: limits.renderLimits()) else { throw ExitCode(1) }
            if !DocumentInteraction(document: document).print.isAvailable { throw ExitCode(1) }
        }
    }
}
