#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Synchronization

/// Removes the office's private directory when the process ends (``OfficeProcessState/removePrivateFiles()``,
/// called by quire's exit path; an exit handler for other programs), and those of offices whose
/// process is gone (a worker killed on its timeout) when the next office starts.
enum OfficeKitCleanup {
    private static let directories = Mutex<[String]>([])
    /// The directory names' prefix; the owner's process id follows.
    static let prefix = "quire-lok-"

    /// Removes `base/quire-lok-PID-*` directories whose process no longer exists, and the
    /// `base/luPID….tmp` directories LibreOffice made in that same process as it started (a
    /// worker killed on its timeout outside bubblewrap leaves both; LibreOffice directories of
    /// a PID that had no Quire office are someone else's and stay).
    static func removeStale(in base: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        var dead: Set<Int32> = []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + "/" + name)
                dead.insert(pid)
            }
        }
        guard !dead.isEmpty else { return }
        for name in names where name.hasPrefix("lu") && name.hasSuffix(".tmp") {
            let digits = name.dropFirst(2).prefix { $0.isASCII && $0.isNumber }
            if let pid = Int32(digits), dead.contains(pid) {
                try? FileManager.default.removeItem(atPath: base + "/" + name)
            }
        }
    }

    static func register(_ directory: String) {
        let first = directories.withLock { list in
            list.append(directory)
            return list.count == 1
        }
        if first { atexit { OfficeKitCleanup.removeAll() } }
    }

    static func removeAll() {
        for directory in directories.withLock({ $0 }) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Makes `exit()` end the process before LibreOffice's static destructors run: they wait
    /// for the office's threads (a render worker that returned through `exit()` hung there).
    /// `on_exit` handlers run in reverse order of registration, so one registered after the
    /// office started (and again after each document, for destructors registered lazily)
    /// runs first: it removes the private files, flushes stdio and `_exit`s with the status.
    static func endBeforeOfficeDestructors() {
        on_exit({ status, _ in
            OfficeKitCleanup.removeAll()
            fflush(nil)
            _exit(status)
        }, nil)
    }
}
