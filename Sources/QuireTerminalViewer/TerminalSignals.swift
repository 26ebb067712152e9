#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem

/// Signal handling for ``TerminalSession``. Everything a handler touches is prepared before the
/// handlers are installed and read with async-signal-safe calls only (write, tcsetattr, raise,
/// alarm); hence plain globals rather than locks.
enum TerminalSignals {
    nonisolated(unsafe) static var savedMode = termios()
    nonisolated(unsafe) static var active: sig_atomic_t = 0
    nonisolated(unsafe) static var wakeRead: Int32 = -1
    nonisolated(unsafe) static var wakeWrite: Int32 = -1
    nonisolated(unsafe) static var pendingTermination: sig_atomic_t = 0
    nonisolated(unsafe) static var pendingResize: sig_atomic_t = 0
    nonisolated(unsafe) private static var restoreBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var restoreCount = 0

    static let terminationSignals: [Int32] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// Sets the bytes written on the way out (before the handlers are installed or while the
    /// terminal is not yet showing anything the new sequence would miss).
    static func setRestoreSequence(_ bytes: [UInt8]) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        buffer.initialize(from: bytes, count: bytes.count)
        let old = restoreBytes
        restoreCount = 0
        restoreBytes = buffer
        restoreCount = bytes.count
        old?.deallocate()
    }

    /// Writes the restore sequence and resets the terminal mode, once.
    static func restore() {
        guard active == 1 else { return }
        active = 0
        if let restoreBytes {
            // writeAll is async-signal-safe: write(2) in a loop, no allocation.
            try? FileDescriptor.standardOutput.writeAll(UnsafeRawBufferPointer(start: restoreBytes, count: restoreCount))
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedMode)
    }

    /// Wakes the key loop from another thread (the render thread: a file opened or a page came
    /// back); ``TerminalSession/readKeys(timeout:)`` then returns `.timeout`.
    static func wake() {
        var byte: UInt8 = 3
        _ = write(wakeWrite, &byte, 1)
    }

    static func install() {
        for signal in terminationSignals { set(signal, handler: onTermination, flags: 0) }
        for signal in crashSignals { set(signal, handler: onCrash, flags: Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))) }
        set(SIGWINCH, handler: onResize, flags: Int32(SA_RESTART))
    }

    static func uninstall() {
        for signal in terminationSignals + crashSignals + [SIGWINCH] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = SIG_DFL
            sigaction(signal, &action, nil)
        }
    }

    private static func set(_ signal: Int32, handler: @escaping @convention(c) (Int32) -> Void, flags: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(signal, &action, nil)
    }

    static func takePendingTermination() -> Int32? {
        let signal = pendingTermination
        return signal == 0 ? nil : signal
    }

    static func takeResize() -> Bool {
        guard pendingResize != 0 else { return false }
        pendingResize = 0
        return true
    }

    /// Ends the process the way `signal` would, after the caller saved what it could.
    static func die(of signal: Int32) -> Never {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigaction(signal, &action, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
        _exit(128 + signal)
    }
}

// The handlers: C function pointers, touching only the prepared globals.

private func onTermination(_ signal: Int32) {
    let saved = errno
    TerminalSignals.restore()
    if TerminalSignals.pendingTermination == 0 {
        TerminalSignals.pendingTermination = signal
        // If the viewer is stuck in a renderer and never reads the pipe, end anyway.
        alarm(3)
    }
    var byte: UInt8 = 1
    _ = write(TerminalSignals.wakeWrite, &byte, 1)
    errno = saved
}

private func onCrash(_ signal: Int32) {
    TerminalSignals.restore()
    raise(signal)
}

private func onResize(_ signal: Int32) {
    let saved = errno
    TerminalSignals.pendingResize = 1
    var byte: UInt8 = 2
    _ = write(TerminalSignals.wakeWrite, &byte, 1)
    errno = saved
}
