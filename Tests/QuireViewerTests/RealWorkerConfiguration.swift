import Quire
import QuireRenderService
import QuireTestSupport
import QuireViewer

/// The viewer configuration the model tests share: this build's quire as the render worker,
/// no printer reachable (a server nobody listens on) unless one is given, and reading the model
/// waits for the worker's answers (no main loop in a test).
enum RealWorkerConfiguration {
    static func make(printSystem: PrintSystem = PrintSystem(server: PrintServer("127.0.0.1:1")),
                     resume: ResumeStore? = nil, cache: Int = 64 << 20, renderTimeout: Double = 30) -> ViewerModel.Configuration {
        var configuration = ViewerModel.Configuration(printSystem: printSystem, resume: resume, cacheByteLimit: cache,
                                                      worker: WorkerCommand(executable: QuireBinary.path), renderTimeout: renderTimeout)
        configuration.waitsForFiles = true
        return configuration
    }
}
