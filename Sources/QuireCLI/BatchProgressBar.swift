#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import Synchronization

/// A one-line progress bar on standard error (only ever used on a terminal): done/total,
/// counts, rate and ETA, redrawn at most ten times a second.
final class BatchProgressBar: Sendable {
    private struct State {
        var total = 0
        var done = 0
        var scanned = 0
        var generated = 0
        var failed = 0
        var started = Date()
        var lastDraw = Date.distantPast
        var planned = false
    }
    private let state = Mutex(State())
    private let width: Int

    init() {
        var size = winsize()
        width = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 20 ? Int(size.ws_col) : 80
    }

    func scannedOne() {
        update { $0.scanned += 1 }
    }

    func plan(total: Int) {
        update(force: true) { state in
            state.total = total
            state.planned = true
            state.started = Date()
        }
    }

    func finishedOne(generated isGenerated: Bool, failed isFailed: Bool) {
        update { state in
            state.done += 1
            if isGenerated { state.generated += 1 }
            if isFailed { state.failed += 1 }
        }
    }

    /// Applies `change` and redraws (at most ten times a second unless `force`).
    private func update(force: Bool = false, _ change: (inout State) -> Void) {
        let width = self.width
        let line: String? = state.withLock { state in
            change(&state)
            let now = Date()
            guard force || now.timeIntervalSince(state.lastDraw) >= 0.1 else { return nil }
            state.lastDraw = now
            return Self.line(state, now: now, width: width)
        }
        if let line { Terminal.errorText("\r" + line + "\u{1B}[K") }
    }

    private static func line(_ state: State, now: Date, width: Int) -> String {
        var line: String
        if !state.planned {
            line = "scanning… \(state.scanned) files"
        } else {
            let elapsed = now.timeIntervalSince(state.started)
            let rate = elapsed > 0 ? Double(state.done) / elapsed : 0
            let remaining = rate > 0 ? Double(state.total - state.done) / rate : 0
            let fraction = state.total > 0 ? Double(state.done) / Double(state.total) : 1
            let counts = " \(state.done)/\(state.total) · \(state.generated) new · \(state.failed) failed · \(DecimalText.fixed(rate, 1))/s · ETA \(clock(remaining))"
            let barWidth = max(10, min(40, width - counts.count - 3))
            let filled = Int(fraction * Double(barWidth))
            line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]" + counts
        }
        if line.count > width - 1 { line = String(line.prefix(width - 1)) }
        return line
    }

    /// Removes the bar so that the summary starts on a clean line.
    func clear() {
        Terminal.errorText("\r\u{1B}[K")
    }

    static func clock(_ seconds: Double) -> String { DurationText.clock(seconds) }
}
