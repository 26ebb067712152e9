#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CQuireSystem

/// The address-space limit (`RLIMIT_AS`) under which a process decodes documents, and what it
/// says when a document needs more: the batch's and the viewers' render workers, and `quire`'s
/// one-shot commands, which decode in their own process (a worker per command would cost the
/// start-up goals). A library that cannot get memory aborts (poppler's allocator, C++'s
/// `bad_alloc`, GLib's `g_malloc`, Swift's runtime) or crashes; a handler for those signals
/// tells that case (the failed call's `ENOMEM`, or no room left under the limit) from other
/// crashes and writes the line set for it before the process ends.
package enum MemoryLimit {
    /// Lowers the soft `RLIMIT_AS` to `bytes` (the hard limit stays, so a child — a sandboxed
    /// worker — can set its own). Not under AddressSanitizer, whose shadow memory reserves
    /// terabytes of address space. Returns whether the limit was set.
    @discardableResult
    package static func apply(bytes: UInt64) -> Bool {
        guard bytes > 0, !isAddressSanitized else { return false }
        var current = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &current)
        var limit = rlimit(rlim_cur: min(rlim_t(bytes), current.rlim_max), rlim_max: current.rlim_max)
        return setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0
    }

    /// Whether this process was built with AddressSanitizer (`make asan`).
    package static let isAddressSanitized: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    // What the signal handler reads: set by ``report(exhausted:status:crashed:status:)`` before
    // the work it covers starts, never while a handler could run on another thread.
    nonisolated(unsafe) private static var exhaustedLine: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var crashedLine: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var exhaustedStatus: Int32 = 70
    nonisolated(unsafe) private static var crashedStatus: Int32 = -1
    nonisolated(unsafe) private static var output: Int32 = STDERR_FILENO
    nonisolated(unsafe) private static var installed = false

    /// The signals a failed allocation ends a process with.
    private static let fatalSignals: [Int32] = [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE]

    /// From now on, a process that ends on a fatal signal having run out of memory writes
    /// `exhausted` (a line) to standard error and exits with `exhaustedStatus`; any other fatal
    /// signal writes `crashed` and exits with `crashedStatus`, or (nil) ends as it would have.
    /// Called again for each file, with that file's lines.
    package static func report(exhausted: String, status exhaustedStatus: Int32, crashed: String?, status crashedStatus: Int32) {
        replace(&exhaustedLine, with: exhausted)
        if let crashed { replace(&crashedLine, with: crashed) } else { replace(&crashedLine, with: nil) }
        self.exhaustedStatus = exhaustedStatus
        self.crashedStatus = crashed == nil ? -1 : crashedStatus
        guard !installed else { return }
        installed = true
        quire_abort_on_uncaught_exception()
        // A copy of standard error as it is now: Ghostscript's calls point descriptor 2 at a
        // capture file while they run.
        let copy = dup(STDERR_FILENO)
        output = copy >= 0 ? copy : STDERR_FILENO
        // The handler runs on an alternate stack: a stack overflow is one of the crashes.
        let size = 64 * 1024
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_size = size
        sigaltstack(&stack, nil)
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in MemoryLimit.handle(signal) }
            action.sa_flags = Int32(SA_ONSTACK) | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigfillset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    private static func replace(_ line: inout UnsafeMutableBufferPointer<UInt8>?, with text: String?) {
        let old = line
        if let text {
            let bytes = Array(text.utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
            line = buffer
        } else {
            line = nil
        }
        old?.deallocate()
    }

    /// Async-signal-safe: `mmap`, `munmap`, `write`, `_exit` only.
    private static func handle(_ signal: Int32) {
        let failedAllocation = errno == ENOMEM
        if failedAllocation || !hasRoom() {
            if let line = exhaustedLine { write(line) }
            _exit(exhaustedStatus)
        }
        if crashedStatus >= 0 {
            if let line = crashedLine { write(line) }
            _exit(crashedStatus)
        }
        // SA_RESETHAND restored the default action: the signal raised again (blocked until the
        // handler returns) ends the process as it would have. Raised for every signal: one sent
        // with kill(2), not a fault, would not come back by re-executing the instruction, and
        // the process would go on (a viewer's worker killed with SIGSEGV kept rendering).
        raise(signal)
    }

    /// Whether 64 MiB more address space could still be reserved.
    private static func hasRoom() -> Bool {
        let size = 64 << 20
        let address = mmap(nil, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        if address == MAP_FAILED { return false }
        munmap(address, size)
        return true
    }

    private static func write(_ line: UnsafeMutableBufferPointer<UInt8>) {
        var offset = 0
        while offset < line.count {
            let written = Glibc.write(output, line.baseAddress! + offset, line.count - offset)
            if written <= 0 { if written < 0 && errno == EINTR { continue }; return }
            offset += written
        }
    }
}
