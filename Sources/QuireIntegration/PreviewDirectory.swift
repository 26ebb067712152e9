#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem

/// Where `quire preview --open` puts the images it hands to a viewer: a 0700 directory of the
/// user's (`$XDG_RUNTIME_DIR/quire-preview`, else `/tmp/quire-preview-UID`). The viewer opens
/// the file after Quire exits, so files stay; those older than a day are removed each time.
public enum PreviewDirectory {
    public static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment,
                               now: Date = Date()) throws(DefaultApplication.OpenError) -> String {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let directory = base.map { $0 + "/quire-preview" } ?? "/tmp/quire-preview-\(getuid())"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw DefaultApplication.OpenError(path: .init(directory),
                                               reason: "cannot create the preview directory: \(Errno.current)")
        }
        // Refuse a directory someone else made or others can write (shared /tmp).
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
              info.st_mode & 0o077 == 0 else {
            throw DefaultApplication.OpenError(path: .init(directory),
                                               reason: "the preview directory is not private to this user")
        }
        if let names = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for name in names where name.hasSuffix(".png") {
                let file = directory + "/" + name
                var entry = stat()
                if lstat(file, &entry) == 0, now.timeIntervalSince1970 - Double(entry.st_mtim.tv_sec) > 86_400 {
                    unlink(file)
                }
            }
        }
        return directory
    }
}
