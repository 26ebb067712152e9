#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An empty directory of its own under `$TMPDIR` (else `/tmp`), for a library that reads,
/// writes and deletes files in `$TMPDIR` on a document's say-so (Ghostscript under `-dSAFER`):
/// while ``whileTMPDIR(_:)`` runs, `$TMPDIR` names it, so the document reaches nothing but
/// this directory; ``remove()`` deletes it with whatever the document left in it.
struct PrivateTemporaryDirectory {
    let path: String

    /// Nil when no directory can be made (errno says why).
    init?() {
        var bases: [String] = []
        if let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty { bases.append(value) }
        bases.append("/tmp")
        for base in bases {
            var template = Array((base + "/quire-gs-XXXXXX").utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            if made != nil {
                path = String(cString: template)
                return
            }
        }
        return nil
    }

    /// Runs `body` with `$TMPDIR` naming this directory, then restores it. The environment is
    /// the process's: callers hold the one lock under which Ghostscript runs. Other threads may
    /// read the environment meanwhile; glibc replaces an existing variable's value in place (the
    /// old string stays valid), while adding one may move the whole array under a reader — so a
    /// `$TMPDIR` that was not set is left set to `/tmp` (what an unset one means) rather than
    /// removed and added again on every call.
    func whileTMPDIR<T>(_ body: () -> T) -> T {
        let saved = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        setenv("TMPDIR", path, 1)
        defer { setenv("TMPDIR", saved, 1) }
        return body()
    }

    /// Deletes the directory and what was made in it (files, and the files of directories in it).
    func remove() {
        Self.empty(path)
        rmdir(path)
    }

    private static func empty(_ directory: String, depth: Int = 0) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names {
            let full = directory + "/" + name
            if unlink(full) != 0 && (errno == EISDIR || errno == EPERM), depth < 8 {
                empty(full, depth: depth + 1)
                rmdir(full)
            }
        }
    }
}
