import ArgumentParser
import Quire

struct CanPrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "can-print",
        abstract: "Exit 0 if the file can be printed now, 1 if not. Prints nothing (for hooks and scripts).",
        discussion: "Use `quire actions FILE` to see why a file cannot be printed.")

    @Argument(help: ArgumentHelp("The file.", valueName: "file"))
    var file: String

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func run() async throws {
        guard let document = try? Document(path: RawArguments.path(file), maximumFileSize: limits.maximumFileSize(),
                                           limits: limits.renderLimits()) else { throw ExitCode(1) }
        let actions = DocumentInteraction(document: document)
        if !actions.print.isAvailable { throw ExitCode(1) }
    }
}
