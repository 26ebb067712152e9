/// Linux calls that Glibc's Swift module map leaves out (they need `_GNU_SOURCE`). All take
/// plain integer and pointer arguments, so a direct declaration is ABI-compatible.
enum LinuxSystemCalls {
    /// `pipe2(2)`: a pipe whose ends are created close-on-exec atomically, so a worker started
    /// concurrently by another pool thread never inherits another worker's pipe.
    static func pipe(closeOnExec fds: UnsafeMutablePointer<Int32>) -> Int32 {
        quire_pipe2(fds, 0o2000000)  // O_CLOEXEC
    }

    /// `prctl(PR_SET_PDEATHSIG, signal)`: the kernel sends `signal` to this process when its
    /// parent dies.
    static func setParentDeathSignal(_ signal: Int32) -> Int32 {
        quire_prctl(1, UInt(signal), 0, 0, 0)  // PR_SET_PDEATHSIG
    }

    /// `memmem(3)`: whether `needle` occurs in `haystack`.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return false }
        return quire_memmem(base, haystack.count, pattern, needle.count) != nil
    }
}

@_silgen_name("memmem")
private func quire_memmem(_ haystack: UnsafeRawPointer, _ haystackLength: Int,
                          _ needle: UnsafeRawPointer, _ needleLength: Int) -> UnsafeMutableRawPointer?

@_silgen_name("pipe2")
private func quire_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

@_silgen_name("prctl")
private func quire_prctl(_ option: Int32, _ arg2: UInt, _ arg3: UInt, _ arg4: UInt, _ arg5: UInt) -> Int32
