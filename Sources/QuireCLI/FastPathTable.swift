import Quire
import QuireRenderService
import QuireArguments

/// quire's pre-parser: the command lines answered straight from `argv`, without building
/// swift-argument-parser's command tree, described as one table of forms (``QuireArguments``).
///
/// The parser reflects over every command and then over the chosen one's options several times
/// (completion-script check, parsing, defaults): millions of instructions of type-metadata and
/// protocol-conformance lookups, more than `--version`, `can-print` or a thumbnail cost
/// otherwise, and a third of a print. The forms here are the ones worth skipping it for:
///
/// | form | who runs it |
/// |---|---|
/// | `quire --version` | scripts, packagers |
/// | `quire thumbnail [-s N] IN OUT` | file managers, one process per thumbnail (the .thumbnailer contract) |
/// | `quire can-print [--] FILE...` | file-manager hooks, each time a context menu opens |
/// | `quire info FILE...` | scripts, per file |
/// | `quire __render-worker ...` | the render service, for its workers (`WorkerCommand.parse`) |
/// | `quire look [--no-resume] FILE...` | a file manager's Open With; exec of the window |
/// | `quire print [-d P] [-n N] [-P R] [--sides S] [-t T] FILE...` | the common print |
///
/// Anything a form does not take exactly — another option, a repeated one, a value of the wrong
/// kind, too few or too many files — and any `QUIRE_*` limit set in the environment for a form
/// whose command reads the limits goes to swift-argument-parser, which validates and reports as
/// always. Each row's request runs the same function its parsed command runs
/// (``FastPathRequest/run()``); `FastPathAgreementTests` checks that the parser reads every line
/// a row takes as the same request.
enum FastPathTable {
    /// The command words that have a row, in the table's order.
    static let commands = ["--version", "thumbnail", "can-print", "info", WorkerCommand.subcommand, "look", "print"]

    /// The request when `arguments` (the whole `argv`, as bytes) is a line one of the rows
    /// takes; nil to use the full parser.
    ///
    /// The rows are the cases of a `switch` over the command word, not an array: only the row
    /// asked for is built, and no array or optional of rows is made and dropped — their types'
    /// metadata, instantiated from mangled names on first use, cost ~15–35 k instructions each
    /// at every start (`--version` is ~6 M in all).
    static func request(for arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> FastPathRequest? {
        guard arguments.count >= 2 else { return nil }
        switch String(decoding: arguments[1], as: UTF8.self) {
        case "--version":
            return read(arguments, environment, ArgumentForm(command: "--version", operands: .none), readsLimits: false) { _ in .version }

        case "thumbnail":
            return read(arguments, environment, ArgumentForm(
                command: "thumbnail",
                // -s128 is taken too, which the parser refuses (as this path always has).
                options: [.option("-s", "--size", value: .integer(1...4096), attachedValue: true)],
                operands: ArgumentOperands(name: "file", count: 2...2))) { parsed in
                .thumbnail(input: parsed.operands[0], output: parsed.operands[1], size: parsed.integer("--size") ?? 256)
            }

        case "can-print":
            return read(arguments, environment, ArgumentForm(command: "can-print", operands: files)) { parsed in
                .canPrint(parsed.operands.map { DocumentPath(bytes: $0) })
            }

        case "info":
            return read(arguments, environment, ArgumentForm(command: "info", operands: files)) { parsed in
                .info(parsed.operands.map { DocumentPath(bytes: $0) })
            }

        case WorkerCommand.subcommand:
            // The render worker reads its own words (RenderWorkerEntry, WorkerCommand.parse): its
            // limits are the options its parent gives it, never the environment it inherits.
            return read(arguments, environment, ArgumentForm(command: WorkerCommand.subcommand, operands: .uninterpreted),
                        readsLimits: false) { _ in
                .lookRenderWorker(arguments)
            }

        case "look":
            return read(arguments, environment, ArgumentForm(command: "look", options: [.flag("--no-resume")], operands: files)) { parsed in
                .look(files: parsed.operands.map { DocumentPath(bytes: $0) }, resume: !parsed.isSet("--no-resume"))
            }

        case "print":
            return read(arguments, environment, ArgumentForm(
                command: "print",
                options: [.option("-d", "--destination"), .option("-n", "--copies", value: .integer(1...Int.max)),
                          .option("-P", "--pages"), .option("--sides"), .option("-t", "--title")],
                operands: files)) { parsed in
                .print(PrintRequest(destination: parsed.text("-d"), copies: parsed.integer("-n"), pages: parsed.text("-P"),
                                    sides: parsed.text("--sides"), title: parsed.text("-t"),
                                    files: parsed.operands.map { DocumentPath(bytes: $0) },
                                    maximumFileSize: LimitOptions.defaultMaximumFileSize, renderLimits: .standard,
                                    seconds: PrintCommand.defaultTimeout))
            }

        default:
            return nil
        }
    }

    /// Files: any words (empty, `help`, names starting with `-` after `--`), as the parser
    /// takes them; at least one.
    static var files: ArgumentOperands { ArgumentOperands(name: "file", count: 1...Int.max) }

    /// The request `make` builds from what `form` read of `arguments`; nil when the form does
    /// not take the line, or when `readsLimits` (the command reads the `QUIRE_*` limits) and one
    /// is set in the environment: the parser reads and checks it.
    private static func read(_ arguments: [[UInt8]], _ environment: (String) -> String?, _ form: ArgumentForm,
                             readsLimits: Bool = true, _ make: (ParsedArguments) -> FastPathRequest) -> FastPathRequest? {
        if readsLimits, limitIsSet(environment) { return nil }
        do {
            return make(try form.parse(arguments))
        } catch {
            return nil
        }
    }

    /// Whether a `QUIRE_*` limit (``Limit``, the time limit included) is set, non-empty, in the
    /// environment.
    static func limitIsSet(_ environment: (String) -> String?) -> Bool {
        Limit.allCases.contains { limit in
            environment(limit.environmentVariable).map { !$0.isEmpty } ?? false
        }
    }
}
