#if canImport(Glibc)
import Glibc
#endif
import CGtk
import QuireArguments
import QuireGIO
import QuireViewer
import QuireRenderService

/// `quire-look --service [--idle-timeout S] [--render-worker-argument ARG]... [--timeout S]`:
/// runs the previewer service (``PreviewerService``) until it has been idle for a while.
@MainActor
enum PreviewerServiceMain {
    static func run(_ arguments: PreviewerServiceArguments) -> Never {
        let idleTimeout = UInt32(arguments.idleTimeout)
        let renderWorker = arguments.renderWorker
        let timeout = arguments.timeout
        g_set_prgname("quire-look")
        g_set_application_name("Quire Look")
        Adwaita.skipGTKTheme()  // no other thread yet; the workers' commands are made later
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
