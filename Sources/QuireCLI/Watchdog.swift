#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Quire

/// Ends the process when rendering takes too long. Some documents make the C libraries run
/// for minutes or forever (a PostScript `{} loop`, pathological PDFs) and poppler or Ghostscript
/// rendering cannot be cancelled, so a thread outside the rendering waits and exits the process
/// with one line on standard error. Output is encoded in memory before any file is created, so
/// nothing partial is left behind.
enum Watchdog {
    /// Starts the timer (0 disables it).
    static func arm(seconds: Int, path: DocumentPath) {
        guard seconds > 0 else { return }
        let message = "quire: \(path): gave up after \(seconds) s (the document takes too long to render; see --timeout)\n"
        // A copy of standard error as it is now: Ghostscript's calls point descriptor 2 at a
        // capture file while they run.
        let errorOutput = dup(STDERR_FILENO)
        let thread = Thread {
            sleep(UInt32(seconds))
            message.withCString { _ = write(errorOutput >= 0 ? errorOutput : STDERR_FILENO, $0, strlen($0)) }
            _exit(ExitStatus.temporaryFailure.rawValue)
        }
        thread.start()
    }
}
