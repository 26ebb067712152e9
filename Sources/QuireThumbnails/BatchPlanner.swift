#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import QuireSystem

/// Walks the paths of a batch and hands out candidate files with their stat facts, or the
/// reason a path was skipped. Names are raw bytes throughout; nothing passes through a shell.
///
/// Rules: a directory is entered only with `recursive` (otherwise it is skipped with a reason);
/// while walking, names starting with `.` are left out unless `includeHidden`, symbolic links to
/// directories are not followed (no cycles), and anything that is not a regular file is
/// ignored. Paths given explicitly are always considered.
struct BatchPlanner {
    struct Candidate {
        var key: ThumbnailKey
        var size: Int64
        var modificationTime: Int64
    }

    enum Found {
        case candidate(Candidate)
        case skipped(path: DocumentPath, failure: ThumbnailFailure, size: Int64)
        /// A path given on the command line that does not exist or cannot be read: an error of
        /// the run (no failure marker: it is not a file that failed to thumbnail).
        case unusable(path: DocumentPath, failure: ThumbnailFailure)
    }

    let options: BatchOptions
    let cache: ThumbnailCache
    let workingDirectory: DocumentPath

    init(options: BatchOptions, cache: ThumbnailCache) {
        self.options = options
        self.cache = cache
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let cwd = getcwd(&buffer, buffer.count).map { _ in buffer.withUnsafeBufferPointer { Array($0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }) } } ?? Array("/".utf8)
        workingDirectory = DocumentPath(bytes: cwd)
    }

    /// Visits every file under `paths`; stops early when `shouldStop` returns true.
    func walk(_ paths: [DocumentPath], shouldStop: () -> Bool, visit: (Found) -> Void) {
        for path in paths {
            if shouldStop() { return }
            guard let key = ThumbnailKey(path: path, relativeTo: workingDirectory) else {
                visit(.unusable(path: path, failure: ThumbnailFailure(.invalidPath, "cannot be expressed as a file URI")))
                continue
            }
            var info = stat()
            guard key.canonicalPath.withCString({ stat($0, &info) }) == 0 else {
                let code = errno
                visit(.unusable(path: path, failure: ThumbnailFailure(code == ENOENT || code == ENOTDIR ? .notFound : .unreadable,
                                                                      code == ENOENT ? "no such file or directory" : Errno(rawValue: code).description)))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                guard options.recursive else {
                    visit(.skipped(path: key.canonicalPath, failure: ThumbnailFailure(.directory, "is a directory", remedy: .recursive), size: 0))
                    continue
                }
                if cache.contains(key.canonicalPath) {
                    visit(.skipped(path: key.canonicalPath, failure: ThumbnailFailure(.insideCache, "is inside the thumbnail cache"), size: 0))
                    continue
                }
                walkDirectory(key.canonicalPath.bytes, shouldStop: shouldStop, visit: visit)
            } else {
                consider(key: key, info: info, visit: visit)
            }
        }
    }

    private func consider(key: ThumbnailKey, info: stat, visit: (Found) -> Void) {
        let size = Int64(info.st_size)
        if let shard = options.shard, !shard.contains(pathBytes: key.canonicalPath.bytes) { return }
        guard info.st_mode & S_IFMT == S_IFREG else {
            visit(.skipped(path: key.canonicalPath, failure: ThumbnailFailure(.notRegular, "not a regular file"), size: size))
            return
        }
        if cache.contains(key.canonicalPath) {
            visit(.skipped(path: key.canonicalPath, failure: ThumbnailFailure(.insideCache, "is inside the thumbnail cache"), size: size))
            return
        }
        if size == 0 {
            visit(.skipped(path: key.canonicalPath, failure: ThumbnailFailure(.empty, "empty file"), size: size))
            return
        }
        if size > options.maximumFileSize {
            visit(.skipped(path: key.canonicalPath,
                           failure: ThumbnailFailure(.tooLarge, "\(size) bytes, " + Limit.fileSize.exceeded(options.maximumFileSize, "bytes"),
                                                     remedy: .raise(.fileSize)),
                           size: size))
            return
        }
        visit(.candidate(Candidate(key: key, size: size, modificationTime: Int64(info.st_mtim.tv_sec))))
    }

    private func walkDirectory(_ directory: [UInt8], shouldStop: () -> Bool, visit: (Found) -> Void) {
        guard let handle = DocumentPath(bytes: directory).withCString({ opendir($0) }) else {
            visit(.skipped(path: DocumentPath(bytes: directory),
                           failure: ThumbnailFailure(.unreadable, "cannot list directory (\(Errno.current))"), size: 0))
            return
        }
        var files: [([UInt8], UInt8)] = []
        while let entry = readdir(handle) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            if !options.includeHidden && name.first == 0x2E { continue }
            files.append((name, entry.pointee.d_type))
        }
        closedir(handle)
        // Sorted for a deterministic order of events.
        files.sort { $0.0.lexicographicallyPrecedes($1.0) }
        let prefix = directory == [0x2F] ? directory : directory + [0x2F]
        for (name, type) in files {
            if shouldStop() { return }
            let full = prefix + name
            var info = stat()
            let isLink = type == UInt8(DT_LNK)
            guard DocumentPath(bytes: full).withCString({ stat($0, &info) }) == 0 else { continue }  // dangling link
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                if isLink { continue }
                if cache.contains(DocumentPath(bytes: full)) { continue }
                walkDirectory(full, shouldStop: shouldStop, visit: visit)
            } else if kind == S_IFREG, let key = ThumbnailKey(canonicalBytes: full) {
                consider(key: key, info: info, visit: visit)
            }
        }
    }
}
