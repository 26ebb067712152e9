#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
internal import QuireGIO
import QuireSystem
import QuireTypes
import QuireRender

/// The per-user freedesktop thumbnail cache (Thumbnail Managing Standard 0.9).
///
/// Layout: `$XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large}/<md5 of URI>.png`, and
/// failure markers in `fail/<program>-<version>/`. Directories are created 0700, files 0600, and
/// every write goes to an unnamed temporary file in the target directory that is linked under a
/// temporary name and renamed over the entry, so readers (and a `kill -9`) never see a partial
/// thumbnail.
public struct ThumbnailCache: Sendable {
    /// The cache root, e.g. `/home/me/.cache/thumbnails` (no trailing slash).
    public let root: String
    /// The failure-marker directory name, `<program>-<version>`.
    public let failureProgram: String

    /// A cache at `root`, or at the standard location for `environment`.
    public init(root: String? = nil, failureProgram: String = "quire-\(QuireThumbnailsInfo.version)",
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        var chosen = root ?? Self.standardRoot(environment: environment)
        while chosen.count > 1 && chosen.hasSuffix("/") { chosen.removeLast() }
        self.root = chosen
        self.failureProgram = failureProgram
    }

    /// `$XDG_CACHE_HOME/thumbnails` when that variable is an absolute path, else
    /// `$HOME/.cache/thumbnails` (the XDG Base Directory fallback).
    public static func standardRoot(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return xdg + "/thumbnails"
        }
        let home = DirectoryPath.home(environment["HOME"])
        return home + "/.cache/thumbnails"
    }

    // MARK: Paths

    /// The directory of a flavor.
    public func directory(for flavor: ThumbnailFlavor) -> String { root + "/" + flavor.directoryName }

    /// The directory holding Quire's failure markers.
    public var failureDirectory: String { root + "/fail/" + failureProgram }

    /// The thumbnail path for `key` in `flavor`.
    public func path(for key: ThumbnailKey, flavor: ThumbnailFlavor) -> String {
        directory(for: flavor) + "/" + key.fileName
    }

    /// The failure-marker path for `key`.
    public func failurePath(for key: ThumbnailKey) -> String { failureDirectory + "/" + key.fileName }

    /// Whether `path` (canonical, absolute) lies inside the cache. Such files are never
    /// thumbnailed.
    public func contains(_ path: DocumentPath) -> Bool {
        let rootBytes = Array(root.utf8)
        return path.bytes == rootBytes || (path.bytes.count > rootBytes.count
            && path.bytes.starts(with: rootBytes) && path.bytes[rootBytes.count] == UInt8(ascii: "/"))
    }

    // MARK: Lookup

    /// The state of one cache entry for a file with the given mtime and size.
    public enum EntryState: Sendable, Hashable {
        /// No entry (or an unreadable one).
        case missing
        /// An entry whose MTime (and Size, if present) match.
        case current(path: String)
        /// An entry for an older version of the file.
        case stale(path: String)

        public var isCurrent: Bool {
            if case .current = self { return true }
            return false
        }
    }

    /// Looks up the thumbnail of `key` in `flavor` and compares it with the file's mtime/size.
    public func lookup(_ key: ThumbnailKey, flavor: ThumbnailFlavor, modificationTime: Int64, size: Int64) -> EntryState {
        Self.state(at: path(for: key, flavor: flavor), modificationTime: modificationTime, size: size)
    }

    /// Looks up the failure marker of `key`: `.current` means the file failed before and has not
    /// changed since, so it is not retried.
    public func lookupFailure(_ key: ThumbnailKey, modificationTime: Int64, size: Int64) -> EntryState {
        Self.state(at: failurePath(for: key), modificationTime: modificationTime, size: size)
    }

    /// A current thumbnail in a shared repository beside the file (`.sh_thumbnails/<flavor>/`,
    /// named by the MD5 of the file name), which is read but never written.
    public func sharedThumbnail(for key: ThumbnailKey, flavor: ThumbnailFlavor, modificationTime: Int64, size: Int64) -> String? {
        let bytes = key.canonicalPath.bytes
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let directory = bytes[..<slash]
        let name = Array(bytes[(slash + 1)...])
        let candidate = Array(directory) + Array("/.sh_thumbnails/\(flavor.directoryName)/\(ThumbnailKey.md5Hex(name)).png".utf8)
        let path = String(decoding: candidate, as: UTF8.self)
        // The directory part may not be UTF-8: read through the raw bytes.
        if case .current = Self.state(atBytes: candidate, modificationTime: modificationTime, size: size) { return path }
        return nil
    }

    /// Reads the metadata of the thumbnail at `path`, nil if it is missing or has no keys.
    public static func metadata(at path: String) -> ThumbnailMetadata? {
        metadata(atBytes: Array(path.utf8))
    }

    static func metadata(atBytes path: [UInt8]) -> ThumbnailMetadata? {
        let fd = DocumentPath(bytes: path).withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // Thumbnailers put their keys before the image data: the first 8 KiB nearly always hold them.
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 8192) }
        guard count > 0 else { return nil }
        if let text = buffer.withUnsafeBytes({ PNGChunks.textChunks(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }),
           let metadata = ThumbnailMetadata(text: text) {
            return metadata
        }
        guard count == 8192, let whole = FileManager.default.contents(atPath: String(decoding: path, as: UTF8.self)) else {
            return nil
        }
        return PNGChunks.textChunks([UInt8](whole)).flatMap { ThumbnailMetadata(text: $0) }
    }

    static func state(at path: String, modificationTime: Int64, size: Int64) -> EntryState {
        state(atBytes: Array(path.utf8), modificationTime: modificationTime, size: size)
    }

    static func state(atBytes path: [UInt8], modificationTime: Int64, size: Int64) -> EntryState {
        switch CacheEntryProbe.state(atBytes: path, modificationTime: modificationTime, size: size) {
        case .missing?: return .missing
        case .current?: return .current(path: String(decoding: path, as: UTF8.self))
        case .stale?: return .stale(path: String(decoding: path, as: UTF8.self))
        case nil: break
        }
        guard let metadata = metadata(atBytes: path) else { return .missing }
        let display = String(decoding: path, as: UTF8.self)
        return metadata.isCurrent(modificationTime: modificationTime, size: size) ? .current(path: display) : .stale(path: display)
    }

    // MARK: Writing

    /// Writes a thumbnail atomically (0600 file, 0700 directories). `png` must already carry
    /// its tEXt keys. Returns the entry's path.
    @discardableResult
    public func store(png: [UInt8], for key: ThumbnailKey, flavor: ThumbnailFlavor) throws(ThumbnailCacheError) -> String {
        let destination = path(for: key, flavor: flavor)
        try Self.writeAtomically(png, directory: directory(for: flavor), destination: destination)
        return destination
    }

    /// Records that `key` could not be thumbnailed: a failure marker (a 1×1 PNG with
    /// `Thumb::URI`, `Thumb::MTime` and `Thumb::Size`) that keeps it from being retried until the
    /// file changes.
    @discardableResult
    public func storeFailure(for key: ThumbnailKey, modificationTime: Int64, size: Int64,
                             reason: String? = nil) throws(ThumbnailCacheError) -> String {
        var entries = ThumbnailMetadata(uri: key.uri, modificationTime: modificationTime, size: size,
                                        software: failureProgram).textEntries
        if let reason { entries.append(("Quire::Failure", String(reason.prefix(500)))) }
        let png = PNGChunks.inserting(text: entries, into: PNGChunks.emptyImage)!
        let destination = failurePath(for: key)
        try Self.writeAtomically(png, directory: failureDirectory, destination: destination)
        return destination
    }

    /// Creates `directory` and its missing parents with mode 0700.
    public static func makeDirectory(_ directory: String) throws(ThumbnailCacheError) {
        if let failure = DirectoryPath.create(directory, permissions: .ownerAll) {
            throw ThumbnailCacheError(path: directory, reason: "cannot create directory (\(failure))", errno: failure)
        }
    }

    static func writeAtomically(_ bytes: [UInt8], directory: String, destination: String) throws(ThumbnailCacheError) {
        func failure(_ error: AtomicReplacement.Failure) -> ThumbnailCacheError {
            let (what, path) = switch error.step {
            case .create: ("cannot create a temporary file", directory)
            case .write: ("cannot write", destination)
            case .link: ("cannot link the temporary file", directory)
            case .rename: ("cannot rename into place", destination)
            }
            return ThumbnailCacheError(path: path, reason: "\(what) (\(error.errno))", errno: error.errno)
        }
        let file: AtomicReplacement
        do { file = try AtomicReplacement(replacing: destination, permissions: .ownerReadWrite) } catch {
            guard error.errno == .noSuchFileOrDirectory else { throw failure(error) }
            try makeDirectory(directory)
            do { file = try AtomicReplacement(replacing: destination, permissions: .ownerReadWrite) } catch { throw failure(error) }
        }
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            throw failure(error)
        }
    }

    /// Removes temporary files left by writers that no longer run. Returns how many.
    @discardableResult
    public func removeLeftovers() -> Int {
        var removed = 0
        for directory in ThumbnailFlavor.allCases.map(directory(for:)) + [failureDirectory] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names where AtomicReplacement.isLeftover(name) {
                if unlink(directory + "/" + name) == 0 { removed += 1 }
            }
        }
        return removed
    }

    // MARK: Maintenance (the Cache1 operations)

    /// Deletes every thumbnail and failure marker of `key`. Returns how many files were removed.
    @discardableResult
    public func delete(_ key: ThumbnailKey) -> Int {
        var removed = 0
        for entry in ThumbnailFlavor.allCases.map({ path(for: key, flavor: $0) }) + [failurePath(for: key)] {
            if unlink(entry) == 0 { removed += 1 }
        }
        return removed
    }

    /// Copies the thumbnails of `source` to `destination` (for a copied file), rewriting
    /// `Thumb::URI`. Returns how many entries were written.
    @discardableResult
    public func copy(from source: ThumbnailKey, to destination: ThumbnailKey) throws(ThumbnailCacheError) -> Int {
        var count = 0
        for flavor in ThumbnailFlavor.allCases {
            guard let data = FileManager.default.contents(atPath: path(for: source, flavor: flavor)),
                  let png = PNGChunks.inserting(text: [("Thumb::URI", destination.uri)], into: [UInt8](data)) else { continue }
            try store(png: png, for: destination, flavor: flavor)
            count += 1
        }
        return count
    }

    /// Moves the thumbnails of a renamed file to its new name, rewriting `Thumb::URI`.
    @discardableResult
    public func move(from source: ThumbnailKey, to destination: ThumbnailKey) throws(ThumbnailCacheError) -> Int {
        let count = try copy(from: source, to: destination)
        delete(source)
        return count
    }

    /// Removes thumbnails and failure markers whose original `file://` no longer exists
    /// (`Cache1.Cleanup`). Returns how many entries were removed.
    /// - Parameters:
    ///   - baseURIs: only originals at or below one of these `file://` URIs; empty means all.
    ///   - since: only entries whose `Thumb::MTime` is at or before this time (seconds since
    ///     1970); 0 means any. A thumbnail of a file that still exists is never removed.
    @discardableResult
    public func cleanup(baseURIs: [String] = [], since: Int64 = 0) -> Int {
        let bases = baseURIs.compactMap { FileURI.localPath(ofURI: $0) }.map { base -> [UInt8] in
            var base = base
            while base.count > 1 && base.last == UInt8(ascii: "/") { base.removeLast() }
            return base
        }
        if !baseURIs.isEmpty && bases.isEmpty { return 0 }   // only non-local bases: nothing here
        func isBelowABase(_ path: [UInt8]) -> Bool {
            bases.isEmpty || bases.contains { base in
                path == base || base == [UInt8(ascii: "/")]
                    || (path.count > base.count && path.starts(with: base) && path[base.count] == UInt8(ascii: "/"))
            }
        }
        var removed = 0
        for directory in ThumbnailFlavor.allCases.map(directory(for:)) + [failureDirectory] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names where name.hasSuffix(".png") {
                let entry = directory + "/" + name
                guard let metadata = Self.metadata(at: entry), let original = FileURI.localPath(ofURI: metadata.uri).map(DocumentPath.init(bytes:)),
                      since == 0 || metadata.modificationTime <= since, isBelowABase(original.bytes) else { continue }
                var info = stat()
                let gone = original.withCString { lstat($0, &info) } != 0 && (errno == ENOENT || errno == ENOTDIR)
                if gone && unlink(entry) == 0 { removed += 1 }
            }
        }
        return removed
    }
}
