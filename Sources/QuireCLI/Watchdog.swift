#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Quire
import QuireSystem
import Synchronization

/// Ends the process when one file takes too long. Some documents make the C libraries run
/// for minutes or forever (a PostScript `{} loop`, pathological PDFs) and poppler or Ghostscript
/// rendering cannot be cancelled, so a thread outside the rendering waits and exits the process
/// with one line on standard error naming the file and the limit (``Limit/time``). Output is
/// encoded in memory before any file is created, so nothing partial is left behind.
///
/// Commands that work through several files call ``arm(seconds:path:)`` again for each file:
/// the limit is per file. Work that runs synchronously on one thread (`info`, a single
/// thumbnail) uses ``limiting(seconds:path:_:)`` instead: the same limit, line and exit status
/// from a timer signal aimed at that thread, without starting a thread in every run. Both also
/// put the file under the memory limit (``MemoryGuard``).
enum Watchdog {
    private struct State: Sendable {
        var deadline: Double = .infinity
        var message = ""
        var started = false
        var errorOutput: Int32 = STDERR_FILENO
        /// Written to standard output after the line (``limiting(seconds:path:standardOutputTail:_:)``).
        var tail: [UInt8] = []
    }
    private static let state = Mutex(State())

    /// The longest time limit accepted (about 11 days); larger, negative, infinite or NaN values
    /// are usage errors rather than a trap when converted to whole seconds.
    static let maximumSeconds: Double = 1_000_000

    /// Checks a time limit given as `name` (an option or `QUIRE_TIMEOUT`).
    static func validated(_ value: Double, name: String, allowZero: Bool) throws -> Double {
        guard value.isFinite, allowZero ? value >= 0 : value > 0, value <= maximumSeconds else {
            throw ValidationError("\(name) must be a number of seconds \(allowZero ? "from 0" : "above 0") to \(Int(maximumSeconds)) (got \(value)).")
        }
        return value
    }

    /// `QUIRE_TIMEOUT`, checked; nil when unset or empty.
    static func environmentSeconds(allowZero: Bool) throws -> Double? {
        guard let text = Terminal.environment(Limit.time.environmentVariable), !text.isEmpty else { return nil }
        guard let value = Double(text) else {
            throw ValidationError("\(Limit.time.environmentVariable) must be a number of seconds (got '\(text)').")
        }
        return try validated(value, name: Limit.time.environmentVariable, allowZero: allowZero)
    }

    /// The per-file time limit: the option, else `QUIRE_TIMEOUT`, else `fallback` (0: none).
    static func seconds(_ option: Int?, default fallback: Int) throws -> Int {
        if let option {
            return Int(try validated(Double(option), name: Limit.time.option, allowZero: true))
        }
        if let value = try environmentSeconds(allowZero: true) { return Int(value.rounded(.up)) }
        return fallback
    }

    private static func now() -> Double { MonotonicClock.seconds() }

    /// Stops the timer (the process goes on without a time limit).
    static func disarm() {
        state.withLock { $0.deadline = .infinity }
    }

    /// The file's work is done and its output is about to be written: the time limit ends here,
    /// so that it cannot run out while the output is put in place and end the process with a
    /// failure status beside a finished file. When it has already run out, the process ends
    /// now, as the limit says, and nothing is written. Call on the thread that does the work.
    static func settle() {
        if let timer = limitingTimer {
            try? timer.arm(seconds: 0)
            // Fired while something on this thread had the signal blocked: the limit ran out.
            var pending = sigset_t()
            if sigpending(&pending) == 0 && sigismember(&pending, timer.signal) == 1 {
                signalMessage.write(to: signalOutput)
                signalTail.write(to: STDOUT_FILENO)
                _exit(ExitStatus.temporaryFailure.rawValue)
            }
        }
        let expired = state.withLock { state -> State? in
            guard state.deadline > now() else { return state }
            state.deadline = .infinity
            return nil
        }
        if let expired { end(expired) }
        // Test hook: a slow disk, where the output takes longer to write than the limit had left.
        if let text = Terminal.environment("QUIRE_TEST_OUTPUT_DELAY_SECONDS"), let delay = Double(text), delay > 0 {
            usleep(UInt32(min(delay, 60) * 1_000_000))
        }
    }

    /// The line written when `path` runs out of time.
    private static func message(seconds: Int, path: DocumentPath) -> String {
        "quire: \(path): \(reason(seconds: seconds))\n"
    }

    /// Why a file was given up: "gave up after 60 s, the per-file time limit (--timeout)".
    static func reason(seconds: Int) -> String {
        "gave up after \(seconds) s, the per-file time limit (\(Limit.time.option))"
    }

    /// Bytes kept where the timer signal's handler can write them without allocating.
    private struct SignalText {
        private var bytes: UnsafeMutablePointer<UInt8>?
        private var count = 0
        private var capacity = 0

        mutating func set(_ text: [UInt8]) {
            count = 0
            if capacity < text.count {
                bytes?.deallocate()
                bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
                capacity = text.count
            }
            bytes?.initialize(from: text, count: text.count)
            count = text.count
        }

        /// write(2) in a loop, no allocation: async-signal-safe.
        func write(to descriptor: Int32) {
            guard let bytes, count > 0 else { return }
            try? FileDescriptor(rawValue: descriptor).writeAll(UnsafeRawBufferPointer(start: bytes, count: count))
        }
    }

    // What the timer signal's handler reads: written by the limited thread before it arms its
    // timer, and the signal goes to that thread only, so no lock (none is async-signal-safe).
    nonisolated(unsafe) private static var signalMessage = SignalText()
    nonisolated(unsafe) private static var signalTail = SignalText()
    nonisolated(unsafe) private static var signalOutput: Int32 = STDERR_FILENO
    /// The timer of the ``limiting(seconds:path:_:)`` call running now (on its thread), for
    /// ``settle()``.
    nonisolated(unsafe) private static var limitingTimer: ThreadTimer?

    /// The timer's signal, its handler installed on first use: a real-time signal, so that no
    /// library's `alarm` or SIGALRM can be taken for the limit.
    private static let timerSignal: Int32 = {
        let signal = ThreadTimer.realtimeSignal(4)
        // A copy of standard error as it is now: Ghostscript's calls point descriptor 2 at a
        // capture file while they run.
        let copy = dup(STDERR_FILENO)
        signalOutput = copy >= 0 ? copy : STDERR_FILENO
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            Watchdog.signalMessage.write(to: Watchdog.signalOutput)
            Watchdog.signalTail.write(to: STDOUT_FILENO)
            _exit(ExitStatus.temporaryFailure.rawValue)
        }
        sigfillset(&action.sa_mask)
        sigaction(signal, &action, nil)
        return signal
    }()

    /// Runs `work` — one file's work, synchronous, on this thread — under the per-file time limit
    /// (0: none): when `seconds` pass first, the process writes the same one line as
    /// ``arm(seconds:path:)`` and exits with status 75, after writing `standardOutputTail` to
    /// standard output (what ends a document streamed there, such as `info --json`'s array).
    /// Not nested, one thread at a time.
    static func limiting<T>(seconds: Int, path: DocumentPath, standardOutputTail: [UInt8] = [],
                            _ work: () throws -> T) rethrows -> T {
        MemoryGuard.guarding(path)
        guard seconds > 0 else { return try work() }
        let signal = timerSignal
        guard let timer = try? ThreadTimer(signal: signal) else {
            // No timer left (RLIMIT_SIGPENDING): the watching thread instead.
            arm(seconds: seconds, path: path, tail: standardOutputTail)
            defer { disarm() }
            return try work()
        }
        // Unblocked before the new line is set: a signal still pending from the previous file
        // (its limit ran out as it ended, while a library had signals blocked) names that file.
        let wasBlocked = ThreadTimer.unblock(signal)
        signalMessage.set(Array(message(seconds: seconds, path: path).utf8))
        signalTail.set(standardOutputTail)
        limitingTimer = timer
        defer {
            limitingTimer = nil
            ThreadTimer.restore(signal, blocked: wasBlocked)
            withExtendedLifetime(timer) {}
        }
        do { try timer.arm(seconds: seconds) } catch {
            arm(seconds: seconds, path: path, tail: standardOutputTail)
            defer { disarm() }
            return try work()
        }
        return try work()
    }

    /// Starts (or restarts, for the next file) the timer; 0 disables it.
    static func arm(seconds: Int, path: DocumentPath) {
        arm(seconds: seconds, path: path, tail: [])
    }

    private static func arm(seconds: Int, path: DocumentPath, tail: [UInt8]) {
        MemoryGuard.guarding(path)
        let startThread = state.withLock { state -> Bool in
            guard seconds > 0 else {
                state.deadline = .infinity
                return false
            }
            state.deadline = now() + Double(seconds)
            state.message = message(seconds: seconds, path: path)
            state.tail = tail
            guard !state.started else { return false }
            state.started = true
            // A copy of standard error as it is now: Ghostscript's calls point descriptor 2 at a
            // capture file while they run.
            let copy = dup(STDERR_FILENO)
            state.errorOutput = copy >= 0 ? copy : STDERR_FILENO
            return true
        }
        guard startThread else { return }
        // A plain detached pthread: the watchdog must not depend on anything the rendering
        // thread might hold (locks, the concurrency runtime's threads).
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 256 * 1024)
        defer { pthread_attr_destroy(&attributes) }
        let result = pthread_create(&thread, &attributes, { _ in
            Watchdog.watch()
        }, nil)
        if result != 0 { state.withLock { $0.started = false } }
    }

    /// The watchdog thread: sleeps until the deadline, then exits the process.
    private static func watch() -> Never {
        while true {
            let (remaining, current) = state.withLock { state in (state.deadline - now(), state) }
            if remaining <= 0 { end(current) }
            usleep(UInt32(min(max(remaining, 0.01), 0.2) * 1_000_000))
        }
    }

    /// The limit ran out (seen by the watching thread or ``settle()``): the line, the tail, exit.
    private static func end(_ expired: State) -> Never {
        expired.message.withCString { _ = write(expired.errorOutput, $0, strlen($0)) }
        try? FileDescriptor.standardOutput.writeAll(expired.tail)
        _exit(ExitStatus.temporaryFailure.rawValue)
    }
}
