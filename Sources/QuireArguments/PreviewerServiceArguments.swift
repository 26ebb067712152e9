/// `quire-look --service`'s command line, which `quire look --service` writes and the window
/// executable reads — one description for both sides:
///
///     quire-look --service [--idle-timeout S] [--render-worker-argument ARG]... [--timeout S]
///
/// The previewer service (GNOME Sushi's D-Bus interface) runs until it has been idle for
/// `--idle-timeout` seconds; the render worker's own options pass through as values.
package struct PreviewerServiceArguments: Equatable, Sendable {
    /// Seconds without a request before the service ends.
    package var idleTimeout: Int
    /// The render worker's `argv`; empty renders in the service's own process.
    package var renderWorker: [String]
    /// Seconds a page may take to render in the worker.
    package var timeout: Double

    package init(idleTimeout: Int = 10, renderWorker: [String] = [], timeout: Double = 30) {
        self.idleTimeout = idleTimeout
        self.renderWorker = renderWorker
        self.timeout = timeout
    }

    package static let form = ArgumentForm(
        command: "--service",
        options: [
            .option("--idle-timeout", value: .integer(1...86_400), repeatable: true, needs: "a number of seconds"),
            .option("--render-worker-argument", value: .anyWord, repeatable: true),
            .option("--timeout", value: .number(minimum: 1), repeatable: true, needs: "a number of seconds"),
        ],
        operands: .none)

    /// Reads a whole `argv` (the program's name, then `--service`).
    package static func parse(_ arguments: [[UInt8]]) throws(ArgumentMismatch) -> PreviewerServiceArguments {
        let parsed = try form.parse(arguments)
        return PreviewerServiceArguments(
            idleTimeout: parsed.integer("--idle-timeout") ?? 10,
            renderWorker: parsed.values("--render-worker-argument").map { String(decoding: $0, as: UTF8.self) },
            timeout: parsed.number("--timeout") ?? 30)
    }

    /// The words after the program's name (`--service` first) that ``parse(_:)`` reads back.
    package func arguments() -> [[UInt8]] {
        var words = [Array("--service".utf8), Array("--idle-timeout".utf8), Array(String(idleTimeout).utf8)]
        for argument in renderWorker { words += [Array("--render-worker-argument".utf8), Array(argument.utf8)] }
        let seconds = timeout.rounded() == timeout && abs(timeout) < 1e15 ? String(Int(timeout)) : String(timeout)
        words += [Array("--timeout".utf8), Array(seconds.utf8)]
        return words
    }
}
