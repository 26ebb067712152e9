import ArgumentParser
import FoundationEssentials
import QuireRenderService
import QuireService
import QuireSystem
import QuireThumbnails

struct ThumbnailerServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnailer-service",
        abstract: "Serve org.freedesktop.thumbnails.Thumbnailer1 and Cache1 on the D-Bus session bus.",
        discussion: """
            The service Tumbler provides, for file managers that ask for thumbnails over D-Bus. \
            Queue answers with a handle at once; the work runs in isolated worker processes \
            (as `quire thumbnail --batch` does) and is reported with the Started, Ready, Error \
            and Finished signals. Invalid arguments get D-Bus errors; files that cannot be \
            thumbnailed get Error signals (codes: 1 unsupported, 2 unreadable, 3 failed). The \
            service exits after --idle-timeout seconds without work, and is normally started \
            by D-Bus activation (`quire integrate install` writes the .service files).
            """)

    @Option(name: .long, help: ArgumentHelp("Seconds without work before exiting.", valueName: "seconds"))
    var idleTimeout: Double = 30

    @Option(name: .long, help: ArgumentHelp("Bus address (default: the session bus).", valueName: "address"))
    var busAddress: String?

    @Option(name: .long, help: ArgumentHelp("Worker processes per request.", valueName: "n"))
    var jobs: Int = 2

    @Option(name: .long, help: ArgumentHelp("Per-file time limit.", valueName: "seconds"))
    var timeout: Double = 15

    func validate() throws {
        if !(idleTimeout > 0) || !idleTimeout.isFinite { throw ValidationError("--idle-timeout must be a positive number of seconds.") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        _ = try Watchdog.validated(timeout, name: "--timeout", allowZero: false)
    }

    func run() async throws {
        let worker = WorkerCommand(executable: ProcessControl.ownExecutable,
                                   limits: WorkerLimits(cpuSecondsPerRequest: max(30, Int(timeout.rounded(.up)) * 2)))
        let backend = CacheThumbnailerBackend(worker: worker, jobs: jobs, timeout: timeout)
        let service = ThumbnailerService(
            backend: backend,
            configuration: .init(idleTimeout: idleTimeout, busAddress: busAddress))
        do {
            try await service.run()
        } catch {
            Terminal.error(error.description)
            throw ExitStatus.unavailable.exitCode
        }
    }
}
