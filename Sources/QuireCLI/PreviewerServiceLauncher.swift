#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireArguments
import QuireSystem

/// `quire look --service`: replaces this process with the window executable serving the file
/// manager's previewer interface (quire-look --service).
enum PreviewerServiceLauncher {
    static func run(worker: [String]?, timeout: Int, idleTimeout: Int) throws {
        guard LookWindowLauncher.hasDisplay else {
            Terminal.error("look --service needs a display (DISPLAY or WAYLAND_DISPLAY); there is none")
            throw ExitStatus.unavailable.exitCode
        }
        guard let executable = LookWindowLauncher.executable() else {
            Terminal.error("look --service needs the window viewer (quire-look), which is not installed")
            throw ExitStatus.unavailable.exitCode
        }
        let service = PreviewerServiceArguments(idleTimeout: idleTimeout, renderWorker: worker ?? [], timeout: Double(timeout))
        let failure = ChildProcess.replaceCurrentProcess([Array(executable.utf8)] + service.arguments())
        Terminal.error("cannot start the window viewer \(executable): \(failure)")
        throw ExitStatus.unavailable.exitCode
    }
}
