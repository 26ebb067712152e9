#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CQuireSystem

/// Process-level calls the C library module leaves out.
package enum ProcessControl {
    /// Has the kernel send `signal` to this process when its parent dies (the corresponding C
    /// call is `prctl(PR_SET_PDEATHSIG, signal)`).
    package static func setParentDeathSignal(_ signal: Int32) throws(Errno) {
        guard quire_set_parent_death_signal(signal) == 0 else { throw Errno.current }
    }

    /// The path of the running executable (`readlink("/proc/self/exe")`), so that workers and
    /// helpers are this very program; the name it was started by if that cannot be read.
    package static var ownExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Waits, at most `seconds`, until process group `group` has no member left that is still
    /// running (a zombie whose parent has not waited for it yet has ended: it holds nothing).
    /// - Returns: whether the group ended in time.
    @discardableResult
    package static func awaitGroupEnd(_ group: Int32, seconds: Double) -> Bool {
        let deadline = Deadline(seconds: seconds)
        while true {
            if !hasRunningMember(group) { return true }
            if deadline.hasPassed { return false }
            usleep(10_000)
        }
    }

    /// Whether process group `group` has a member that is not a zombie.
    package static func hasRunningMember(_ group: Int32) -> Bool {
        if kill(-group, 0) != 0 && errno == ESRCH { return false }
        guard let directory = opendir("/proc") else { return true }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name) else { continue }
            // /proc/PID/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
            guard let stat = statLine(pid), let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
            guard fields.count >= 3, let processGroup = pid_t(String(decoding: fields[2], as: UTF8.self)),
                  processGroup == group else { continue }
            if fields[0].first != UInt8(ascii: "Z") { return true }
        }
        return false
    }

    /// The bytes of `/proc/PID/stat` (one short line), or nil when the process is gone.
    private static func statLine(_ pid: pid_t) -> [UInt8]? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? Array(bytes.prefix(count)) : nil
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
