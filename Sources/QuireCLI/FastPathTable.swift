import Quire
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
/// | `quire __look-render-worker ...` | the viewer, for its render worker (its own parser) |
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
    /// One form, and how what it read becomes the command's request.
    struct Row: Sendable {
        let form: ArgumentForm
        /// Whether the command reads the `QUIRE_*` limits: with one set in the environment, the
        /// line goes to the parser, which reads and checks it.
        let readsLimits: Bool
        /// The request; nil when the line is not one the short path takes after all.
        let request: @Sendable (_ parsed: ParsedArguments, _ arguments: [[UInt8]]) -> FastPathRequest?
    }

    /// Files: any words (empty, `help`, names starting with `-` after `--`), as the parser
    /// takes them; at least one.
    static let files = ArgumentOperands(name: "file", count: 1...Int.max)

    static let rows: [Row] = [
        Row(form: ArgumentForm(command: "--version", operands: .none), readsLimits: false) { _, _ in .version },

        Row(form: ArgumentForm(
                command: "thumbnail",
                // -s128 is taken too, which the parser refuses (as this path always has).
                options: [.option("-s", "--size", value: .integer(1...4096), attachedValue: true)],
                operands: ArgumentOperands(name: "file", count: 2...2)),
            readsLimits: true) { parsed, _ in
            .thumbnail(input: parsed.operands[0], output: parsed.operands[1], size: parsed.integer("--size") ?? 256)
        },

        Row(form: ArgumentForm(command: "can-print", operands: files), readsLimits: true) { parsed, _ in
            .canPrint(parsed.operands.map { DocumentPath(bytes: $0) })
        },

        Row(form: ArgumentForm(command: "info", operands: files), readsLimits: true) { parsed, _ in
            .info(parsed.operands.map { DocumentPath(bytes: $0) })
        },

        // The render worker reads its own words (LookRenderWorkerFastPath).
        Row(form: ArgumentForm(command: LookRenderWorkerCommand.name, operands: .uninterpreted), readsLimits: true) { _, arguments in
            .lookRenderWorker(arguments)
        },

        Row(form: ArgumentForm(command: "look", options: [.flag("--no-resume")], operands: files), readsLimits: true) { parsed, _ in
            .look(files: parsed.operands.map { DocumentPath(bytes: $0) }, resume: !parsed.isSet("--no-resume"))
        },

        Row(form: ArgumentForm(
                command: "print",
                options: [.option("-d", "--destination"), .option("-n", "--copies", value: .integer(1...Int.max)),
                          .option("-P", "--pages"), .option("--sides"), .option("-t", "--title")],
                operands: files),
            readsLimits: true) { parsed, _ in
            .print(PrintRequest(destination: parsed.text("-d"), copies: parsed.integer("-n"), pages: parsed.text("-P"),
                                sides: parsed.text("--sides"), title: parsed.text("-t"),
                                files: parsed.operands.map { DocumentPath(bytes: $0) },
                                maximumFileSize: LimitOptions.defaultMaximumFileSize, renderLimits: .standard,
                                seconds: PrintCommand.defaultTimeout))
        },
    ]

    /// The request when `arguments` (the whole `argv`, as bytes) is a line one of the rows
    /// takes; nil to use the full parser.
    static func request(for arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> FastPathRequest? {
        guard let row = rows.first(where: { $0.form.isNamed(by: arguments) }) else { return nil }
        if row.readsLimits, limitIsSet(environment) { return nil }
        guard let parsed = try? row.form.parse(arguments) else { return nil }
        return row.request(parsed, arguments)
    }

    /// Whether a `QUIRE_*` limit (``Limit``, the time limit included) is set, non-empty, in the
    /// environment.
    static func limitIsSet(_ environment: (String) -> String?) -> Bool {
        Limit.allCases.contains { limit in
            environment(limit.environmentVariable).map { !$0.isEmpty } ?? false
        }
    }
}
