#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

/// Time stamps of the window's start-up, for the benchmark (bench/look-window-bench.sh):
/// with `QUIRE_LOOK_TRACE=FILE`, each mark appends "MILLISECONDS EVENT" to FILE, the
/// milliseconds on CLOCK_MONOTONIC (the clock the benchmark's probe reads), so that the
/// events line up with the moment `quire look` was started. Without the variable: nothing.
enum LookTrace {
    private static let descriptor: Int32 = {
        guard let path = getenv("QUIRE_LOOK_TRACE"), path.pointee != 0 else { return -1 }
        return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    }()

    /// Whether marks are written.
    static var isOn: Bool { descriptor >= 0 }

    /// Appends one event (any thread; one write per line).
    static func mark(_ event: String) {
        guard descriptor >= 0 else { return }
        let milliseconds = MonotonicClock.milliseconds()
        let line = "\((milliseconds * 10).rounded() / 10) \(event)\n"
        _ = line.withCString { write(descriptor, $0, strlen($0)) }
    }
}
