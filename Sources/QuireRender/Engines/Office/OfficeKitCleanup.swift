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
            if !isAlive(pid) {
                removeTree(base + "/" + name)
                dead.insert(pid)
            }
        }
        guard !dead.isEmpty else { return }
        for name in names where officeTemporaryOwner(of: name, among: dead, isRunningOffice: isRunningOffice) != nil {
            removeTree(base + "/" + name)
        }
    }

    /// The dead process, of `dead`, that made LibreOffice's temporary directory `name`, if any.
    ///
    /// LibreOffice names them `lu` + its decimal process id + a base-36 tick count (one to six
    /// characters) + `.tmp`. The tick count begins with a digit on a machine that has been up
    /// between about 28 minutes and 4.7 hours, so the process id cannot be read as "the
    /// digits after `lu`": every split of the digits into an id and the start of the count is
    /// a candidate. A name is attributed to a dead process only when no other candidate is a
    /// running LibreOffice (that one may be its owner: such a name stays).
    static func officeTemporaryOwner(of name: String, among dead: Set<Int32>, isRunningOffice: (Int32) -> Bool) -> Int32? {
        guard name.hasPrefix("lu"), name.hasSuffix(".tmp") else { return nil }
        let body = Array(name.utf8.dropFirst(2).dropLast(4))
        let isBase36 = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) }
        guard !body.isEmpty, body.allSatisfy(isBase36) else { return nil }
        let digits = body.prefix { (0x30...0x39).contains($0) }
        var owner: Int32?
        for length in stride(from: digits.count, through: 1, by: -1) {
            let tick = body.count - length
            guard (1...6).contains(tick), let pid = Int32(String(decoding: digits.prefix(length), as: UTF8.self)),
                  pid > 0 else { continue }
            if dead.contains(pid) {
                owner = owner ?? pid
            } else if isRunningOffice(pid) {
                return nil
            }
        }
        return owner
    }

    /// Whether a process with this id exists (a zombie, not yet waited for, counts).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Whether process `pid` runs LibreOffice (its program libraries are mapped): only such a
    /// process makes `lu….tmp` directories. A process whose map cannot be read is another
    /// user's, whose directories this one could not remove anyway.
    static func isRunningOffice(_ pid: Int32) -> Bool {
        guard isAlive(pid), let maps = fopen("/proc/\(pid)/maps", "r") else { return false }
        defer { fclose(maps) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            if strstr(line, "libreoffice/program/") != nil || strstr(line, "libmergedlo") != nil { return true }
        }
        return false
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
            removeTree(directory)
        }
    }

    /// Removes `path` and everything below it. The office's own threads may still be writing
    /// into its profile as the process ends (a file made while the tree is being removed fails
    /// the last `rmdir` with ENOTEMPTY): the removal is tried again, a few times.
    static func removeTree(_ path: String) {
        for attempt in 0..<10 {
            try? FileManager.default.removeItem(atPath: path)
            var info = stat()
            if lstat(path, &info) != 0 { return }
            if attempt > 0 { usleep(10_000) }
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
