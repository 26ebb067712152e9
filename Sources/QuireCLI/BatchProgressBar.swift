#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes

/// A one-line progress bar on standard error (only ever used on a terminal): done/total,
/// counts, rate and ETA, redrawn at most ten times a second.
final class BatchProgressBar: @unchecked Sendable {
    private var total = 0
    private var done = 0
    private var scanned = 0
    private var generated = 0
    private var failed = 0
    private var started = Date()
    private var lastDraw = Date.distantPast
    private var planned = false
    private let width: Int

    init() {
        var size = winsize()
        width = ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 20 ? Int(size.ws_col) : 80
    }

    func scannedOne() {
        scanned += 1
        draw()
    }

    func plan(total: Int) {
        self.total = total
        planned = true
        started = Date()
        draw(force: true)
    }

    func finishedOne(generated isGenerated: Bool, failed isFailed: Bool) {
        done += 1
        if isGenerated { generated += 1 }
        if isFailed { failed += 1 }
        draw()
    }

    private func draw(force: Bool = false) {
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        var line: String
        if !planned {
            line = "scanning… \(scanned) files"
        } else {
            let elapsed = now.timeIntervalSince(started)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let remaining = rate > 0 ? Double(total - done) / rate : 0
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            let counts = " \(done)/\(total) · \(generated) new · \(failed) failed · \(DecimalText.fixed(rate, 1))/s · ETA \(Self.clock(remaining))"
            let barWidth = max(10, min(40, width - counts.count - 3))
            let filled = Int(fraction * Double(barWidth))
            line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]" + counts
        }
        if line.count > width - 1 { line = String(line.prefix(width - 1)) }
        Terminal.errorText("\r" + line + "\u{1B}[K")
    }

    /// Removes the bar so that the summary starts on a clean line.
    func clear() {
        Terminal.errorText("\r\u{1B}[K")
    }

    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let total = Int(seconds.rounded())
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return total >= 3600 ? "\(total / 3600):\(twoDigits(total / 60 % 60)):\(twoDigits(total % 60))"
                             : "\(total / 60):\(twoDigits(total % 60))"
    }
}
