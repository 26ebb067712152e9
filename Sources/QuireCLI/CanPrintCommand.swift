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
        // A limit that cannot be read answers "no", like a file that cannot be opened.
        guard let maximumFileSize = try? limits.maximumFileSize(), let renderLimits = try? limits.renderLimits(),
              Self.canPrint(RawArguments.path(file), maximumFileSize: maximumFileSize, limits: renderLimits) else {
            throw ExitCode(1)
        }
    }

    /// Whether `path` can be printed now. Shared by the parsed command and the plain form
    /// `quire can-print FILE` (``PlainFormFastPath``).
    static func canPrint(_ path: DocumentPath, maximumFileSize: Int64, limits: RenderLimits) -> Bool {
        guard let document = try? Document(path: path, maximumFileSize: maximumFileSize, limits: limits) else { return false }
        return DocumentInteraction.canPrint(document)
    }
}
