#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import QuireSystem
import QuireRenderService

/// Walks the paths of a batch and hands out candidate files with their stat facts, or the
/// reason a path was skipped. Names are raw bytes throughout; nothing passes through a shell.
///
/// Rules: a directory given explicitly has its files processed; its sub-directories are entered
/// only with `recursive` (as `vipsthumbnail dir/*` or a file manager would). While walking, names starting with `.` are left out unless `includeHidden`, symbolic links to
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
                if cache.contains(key.canonicalPath) {
                    visit(.skipped(path: key.canonicalPath, failure: ThumbnailFailure(.insideCache, "is inside the thumbnail cache"), size: 0))
                    continue
                }
                // A directory that yields no file at all is said so (not silently passed over).
                if let listing = walkDirectory(key.canonicalPath.bytes, descend: options.recursive, shouldStop: shouldStop, visit: visit),
                   listing.files == 0, listing.cacheDirectories == 0, !shouldStop() {
                    let skipped = listing.directoriesNotEntered
                    let failure = skipped == 0
                        ? ThumbnailFailure(.directory, "no files in the directory")
                        : ThumbnailFailure(.directory, "no files directly in it, only \(skipped) sub-director\(skipped == 1 ? "y" : "ies")",
                                           remedy: .recursive)
                    visit(.skipped(path: key.canonicalPath, failure: failure, size: 0))
                }
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

    /// What a directory walk found: regular files (in every shard), and sub-directories not
    /// entered because the walk does not descend.
    struct Listing {
        var files = 0
        var directoriesNotEntered = 0
        /// The thumbnail cache itself, met while walking (left alone, never reported as empty).
        var cacheDirectories = 0
    }

    /// Lists `directory`; enters its sub-directories only when `descend` (that is, with `-r`).
    /// Returns nil when the directory cannot be listed (reported as skipped).
    @discardableResult
    private func walkDirectory(_ directory: [UInt8], descend: Bool, shouldStop: () -> Bool, visit: (Found) -> Void) -> Listing? {
        guard let handle = DocumentPath(bytes: directory).withCString({ opendir($0) }) else {
            visit(.skipped(path: DocumentPath(bytes: directory),
                           failure: ThumbnailFailure(.unreadable, "cannot list directory (\(Errno.current))"), size: 0))
            return nil
        }
        var listing = Listing()
        var files: [([UInt8], UInt8)] = []
        while let entry = readdir(handle) {
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            if !options.includeHidden && name.first == 0x2E { continue }
            files.append((name, entry.pointee.d_type))
        }
        // Sorted for a deterministic order of events.
        files.sort { $0.0.lexicographicallyPrecedes($1.0) }
        // Entries are looked up relative to the open directory (a one-component path walk each),
        // all before descending, so no directory stays open during the recursion.
        let directoryDescriptor = dirfd(handle)
        var found: [([UInt8], UInt8, stat)] = []
        found.reserveCapacity(files.count)
        for (name, type) in files {
            var info = stat()
            guard DocumentPath(bytes: name).withCString({ fstatat(directoryDescriptor, $0, &info, 0) }) == 0 else { continue }  // dangling link
            found.append((name, type, info))
        }
        closedir(handle)
        let prefix = directory == [0x2F] ? directory : directory + [0x2F]
        for (name, type, info) in found {
            if shouldStop() { return listing }
            let full = prefix + name
            let isLink = type == UInt8(DT_LNK)
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                if isLink { continue }
                if !descend {
                    listing.directoriesNotEntered += 1
                    continue
                }
                if cache.contains(DocumentPath(bytes: full)) {
                    listing.cacheDirectories += 1
                    continue
                }
                if let inner = walkDirectory(full, descend: true, shouldStop: shouldStop, visit: visit) {
                    listing.files += inner.files
                    listing.cacheDirectories += inner.cacheDirectories
                }
            } else if kind == S_IFREG, let key = ThumbnailKey(canonicalBytes: full) {
                listing.files += 1
                consider(key: key, info: info, visit: visit)
            }
        }
        return listing
    }
}
