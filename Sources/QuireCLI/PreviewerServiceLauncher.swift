#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
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
        var arguments = [executable, "--service", "--idle-timeout", String(idleTimeout), "--timeout", String(timeout)]
        for argument in worker ?? [] { arguments += ["--render-worker-argument", argument] }
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        execv(executable, &pointers)
        Terminal.error("cannot start the window viewer \(executable): \(Errno.current)")
        throw ExitStatus.unavailable.exitCode
    }
}
