internal import CQuireSystem

/// Process-level calls the C library module leaves out.
package enum ProcessControl {
    /// Has the kernel send `signal` to this process when its parent dies (the corresponding C
    /// call is `prctl(PR_SET_PDEATHSIG, signal)`).
    package static func setParentDeathSignal(_ signal: Int32) throws(Errno) {
        guard quire_set_parent_death_signal(signal) == 0 else { throw Errno.current }
    }
}

/// Byte search over raw memory.
package enum MemorySearch {
    /// Whether `needle` occurs in `haystack` (the corresponding C function is `memmem(3)`).
    package static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress else { return false }
        return quire_memmem(base, haystack.count, pattern, needle.count) != nil
    }

    /// The offset of the first `needle` in `haystack` at or after `start`, or nil.
    package static func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress, start >= 0, start < haystack.count,
              let found = quire_memmem(base + start, haystack.count - start, pattern, needle.count) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
