#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireArguments
import QuireSystem

/// Starts the Quick Look window, a separate executable (`quire-look`) so that the quire binary
/// never links GTK: installed as PREFIX/libexec/quire/quire-look, or found next to quire in a
/// build directory. The files go as separate argument entries (never through a shell).
enum LookWindowLauncher {
    /// Whether a graphical session is reachable (a Wayland or X11 display is named).
    static var hasDisplay: Bool {
        !(Terminal.environment("WAYLAND_DISPLAY") ?? "").isEmpty || !(Terminal.environment("DISPLAY") ?? "").isEmpty
    }

    /// The window executable, if it is installed beside this quire.
    static func executable() -> String? {
        let own = ProcessControl.ownExecutable
        guard let slash = own.lastIndex(of: "/") else { return nil }
        let directory = String(own[..<slash])
        for candidate in [directory + "/../libexec/quire/quire-look", directory + "/quire-look"]
        where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }

    /// Replaces this process with the window. Returns only when it could not be started.
    /// - Parameter renderWorker: the render worker's argv (each entry passed with
    ///   `--render-worker-argument`); nil renders in the window's own process.
    static func exec(_ executable: String, paths: [DocumentPath], password: String?, resume: Bool,
                     renderWorker: [String]?, timeout: Int, printSheet: Bool = false, csvAsSpreadsheet: Bool = false) -> String {
        let arguments = [Array(executable.utf8)] + Self.arguments(
            paths: paths, password: password, resume: resume, renderWorker: renderWorker, timeout: timeout,
            printSheet: printSheet, csvAsSpreadsheet: csvAsSpreadsheet)
        let failure = ChildProcess.replaceCurrentProcess(arguments)
        return "cannot start the window viewer \(executable): \(failure)"
    }

    /// The window's words after its name (``LookWindowArguments``, which quire-look reads back).
    static func arguments(paths: [DocumentPath], password: String?, resume: Bool, renderWorker: [String]?,
                          timeout: Int, printSheet: Bool = false, csvAsSpreadsheet: Bool = false) -> [[UInt8]] {
        var window = LookWindowArguments(files: paths.map(\.bytes), password: password, resume: resume, printSheet: printSheet,
                                         renderWorker: renderWorker ?? [], timeout: Double(timeout))
        window.csvAsSpreadsheet = csvAsSpreadsheet
        return window.arguments()
    }
}
