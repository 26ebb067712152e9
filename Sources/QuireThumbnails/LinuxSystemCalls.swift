/// Linux calls that Glibc's Swift module map leaves out (they need `_GNU_SOURCE`). Both are
/// plain integer-argument calls, so a direct declaration is ABI-compatible.
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
}

@_silgen_name("pipe2")
private func quire_pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

@_silgen_name("prctl")
private func quire_prctl(_ option: Int32, _ arg2: UInt, _ arg3: UInt, _ arg4: UInt, _ arg5: UInt) -> Int32
