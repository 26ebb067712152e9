import ArgumentParser
import Quire
import QuireViewer

/// The hidden page renderer of `quire look`: `quire __look-render-worker`, started by the
/// viewer so that a renderer crash or hang costs one page, not the viewer and the terminal.
struct LookRenderWorkerCommand: ParsableCommand {
    static let name = "__look-render-worker"
    static let configuration = CommandConfiguration(
        commandName: name, abstract: "Internal: the page renderer process of quire look.", shouldDisplay: false)

    @OptionGroup(title: "Limits") var limits: LimitOptions

    func run() throws {
        let status = PageRenderServer.serve(limits: try limits.renderLimits())
        if status != 0 { throw ExitCode(status) }
    }
}
