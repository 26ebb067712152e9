#if canImport(Glibc)
import Glibc
#endif
import CGtk
import QuireGIO
import QuireViewer
import QuireRenderService

/// `quire-look --service [--idle-timeout S] [--render-worker-argument ARG]... [--timeout S]`:
/// runs the previewer service (``PreviewerService``) until it has been idle for a while.
@MainActor
enum PreviewerServiceMain {
    static func run(_ arguments: [String]) -> Never {
        var arguments = arguments
        var idleTimeout: UInt32 = 10
        var renderWorker: [String] = []
        var timeout = 30.0
        while !arguments.isEmpty {
            let argument = arguments.removeFirst()
            switch argument {
            case "--idle-timeout":
                guard let value = arguments.first.flatMap({ UInt32($0) }), value >= 1 else {
                    fail("--idle-timeout needs a number of seconds", 64)
                }
                arguments.removeFirst()
                idleTimeout = value
            case "--render-worker-argument":
                guard !arguments.isEmpty else { fail("--render-worker-argument needs a value", 64) }
                renderWorker.append(arguments.removeFirst())
            case "--timeout":
                guard let value = arguments.first.flatMap({ Double($0) }), value >= 1 else {
                    fail("--timeout needs a number of seconds", 64)
                }
                arguments.removeFirst()
                timeout = value
            default:
                fail("unknown option \(argument) for --service", 64)
            }
        }
        g_set_prgname("quire-look")
        g_set_application_name("Quire Look")
        if gtk_init_check() == 0 { fail("cannot open the display", 69) }
        Adwaita.start()
        let bus: DBusConnection
        do {
            bus = try DBusConnection(address: nil)
        } catch {
            fail("no session bus: \(error.description)", 69)
        }
        var configuration = ViewerModel.Configuration()
        if !renderWorker.isEmpty {
            guard renderWorker.count >= 2, renderWorker[1] == WorkerCommand.subcommand,
                  let (render, limits) = WorkerCommand.parse(renderWorker.dropFirst(2).map { Array($0.utf8) }) else {
                fail("--render-worker-argument: not a render worker's command line", 64)
            }
            configuration.limits = render
            configuration.worker = WorkerCommand(executable: renderWorker[0], renderLimits: render, limits: limits)
        }
        configuration.renderTimeout = timeout
        let service = PreviewerService(connection: bus, configuration: configuration, idleTimeout: idleTimeout)
        PreviewerService.current = service
        do {
            try service.start()
        } catch {
            fail("cannot serve \(PreviewerService.busName): \(error.message)", 69)
        }
        while !service.finished {
            g_main_context_iteration(nil, 1)
        }
        if let failure = service.failure { fail(failure, 69) }
        bus.flush()
        exit(0)
    }
}
