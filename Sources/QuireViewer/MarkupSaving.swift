#if canImport(Glibc)
import Glibc
#endif
import Quire
import QuireSystem
import QuireRenderService

/// Saving a viewer's markup into the PDF it marks (Done) and taking it back (Revert). The
/// worker makes the update (``RenderClient/saveChanges(_:_:)``: the viewer never parses the
/// PDF); ``DocumentUpdateWriter`` puts it in place atomically, the original bytes first and the
/// file's mode kept, and refuses a file changed on disk since the viewer opened it. Blocking:
/// a front-end calls these off its main loop.
public enum MarkupSaving {
    /// What a save in place left behind: the original's size (a revert cuts a PDF back to
    /// it), an image's original bytes (a revert writes them back: an image is written whole),
    /// and the file as written (a revert refuses a file changed since).
    public struct Saved: Sendable, Hashable {
        public let originalSize: Int64
        public let writtenSize: Int64
        public let writtenTime: FileTime
        public var originalBytes: [UInt8]? = nil

        /// This save, reverting to the bytes before `earlier` (the window's first save).
        public func after(_ earlier: Saved?) -> Saved {
            guard let earlier else { return self }
            return Saved(originalSize: earlier.originalSize, writtenSize: writtenSize, writtenTime: writtenTime, originalBytes: earlier.originalBytes)
        }
    }

    /// Why `path` cannot be saved in place (a read-only file — one nobody may write is refused
    /// even to root —, or a folder where no file can be made beside it), nil when it can.
    public static func refusal(_ path: DocumentPath) -> String? {
        // Marked read-only (no write permission for anyone): kept so even for root, who could write it.
        var status = stat()
        if path.withCString({ stat($0, &status) }) == 0, status.st_mode & 0o222 == 0 { return "the file is read-only" }
        if path.withCString({ access($0, W_OK) }) != 0 {
            let error = Errno.current
            return error == .permissionDenied || error.rawValue == EROFS ? "the file is read-only" : "the file cannot be written: \(error)"
        }
        let bytes = path.bytes
        let folder = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<$0]) } ?? [UInt8(ascii: ".")]
        let writable = (folder + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { access($0, W_OK) == 0 }
        }
        return writable ? nil : "its folder is read-only (the saved file is written beside it, then renamed)"
    }

    /// Saves `changes` into the file `original` was opened from — or, with `copy`, into a new
    /// file there, the original left as it is — through a worker started for it (`worker`,
    /// `sandbox`); nothing is written on any refusal or failure.
    ///
    /// `finishing`: what is done to the worker's update before it is written (a signature
    /// written into the room the worker kept for it); its refusal writes nothing.
    public static func save(_ changes: DocumentChanges, request: DocumentRequest, original: InputFile, to copy: DocumentPath? = nil,
                            worker: WorkerCommand, sandbox: RenderClient.SandboxPolicy, timeout: Double,
                            finishing: ((PDFUpdate) -> Result<PDFUpdate, RenderProblem>)? = nil) -> Result<Saved, RenderProblem> {
        let client = RenderClient(command: worker, timeout: timeout, sandbox: sandbox)
        defer { client.stop() }
        var update: PDFUpdate
        do { update = try client.saveChanges(request, changes) } catch {
            return .failure(RenderProblem(.unsupported, error.message))
        }
        if let finishing {
            switch finishing(update) {
            case .success(let finished): update = finished
            case .failure(let problem): return .failure(problem)
            }
        }
        var size: Int64 = 0
        var originalBytes: [UInt8]?
        switch update {
        case .incremental(let originalSize, _): size = originalSize
        case .image where copy == nil:
            // Written whole: Revert needs the bytes as they were, read before they are replaced.
            guard let bytes = try? original.read(upTo: Int(original.size)), Int64(bytes.count) == original.size else {
                return .failure(RenderProblem(.unreadable, "the image cannot be read to keep it for Revert; nothing was written"))
            }
            size = original.size
            originalBytes = bytes
        case .image: break
        case .rewritten where copy == nil:
            return .failure(RenderProblem(.unsupported, "poppler had to rebuild this PDF, so its original bytes cannot be kept; save a copy instead"))
        case .rewritten: break
        }
        do { try DocumentUpdateWriter.write(update, original: original, to: copy) } catch {
            return .failure(RenderProblem(.unreadable, error.reason))
        }
        guard let written = try? InputFile(path: copy ?? original.path, maximumSize: Int64.max) else {
            return .failure(RenderProblem(.unreadable, "the saved file cannot be read back"))
        }
        return .success(Saved(originalSize: size, writtenSize: written.size, writtenTime: written.modificationTime, originalBytes: originalBytes))
    }

    /// Whether the file `original` was opened from is no longer as it was read (another
    /// program wrote it, or it is gone): its size or modification time differ.
    public static func changedOnDisk(_ original: InputFile) -> Bool {
        var now = stat()
        guard original.path.withCString({ stat($0, &now) }) == 0 else { return true }
        let modified = FileTime(seconds: Int64(now.st_mtim.tv_sec), nanoseconds: Int32(now.st_mtim.tv_nsec))
        return Int64(now.st_size) != original.size || modified != original.modificationTime
    }

    /// Puts back the bytes `path` had before the first save (`saved`), unless the file changed
    /// on disk since the last save.
    public static func revert(_ path: DocumentPath, to saved: Saved) -> RenderProblem? {
        guard let now = try? InputFile(path: path, maximumSize: Int64.max) else {
            return RenderProblem(.unreadable, "the file cannot be read")
        }
        guard now.size == saved.writtenSize, now.modificationTime == saved.writtenTime else {
            return RenderProblem(.unreadable, "the file changed on disk since it was saved; nothing was written")
        }
        do {
            if let bytes = saved.originalBytes {
                try DocumentUpdateWriter.restore(path, bytes: bytes)
            } else {
                try DocumentUpdateWriter.revert(path, toOriginalSize: saved.originalSize)
            }
        } catch {
            return RenderProblem(.unreadable, error.reason)
        }
        return nil
    }
}
