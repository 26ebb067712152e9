#if canImport(Glibc)
import Glibc
#endif
import QuireRender
import QuireSystem
import QuireTypes

/// Puts a document the worker saved (``PDFUpdate``) in place, atomically: a temporary file
/// beside the target gets the original's bytes as they are, then the update, is synced and
/// renamed over the target (the system layer's ``AtomicReplacement``). In place, the file keeps
/// its mode, and it is refused when it changed on disk since it was read (another program wrote
/// it) or when poppler could not append an update (it rebuilt the file: only a copy may be
/// saved then). Nothing is written on any refusal or failure; a kill leaves the original whole.
public enum DocumentUpdateWriter {
    /// Writes `update` of `original` (the file the worker was asked about, opened before) to
    /// `output`, or over `original` itself when `output` is nil.
    public static func write(_ update: PDFUpdate, original: InputFile, to output: DocumentPath?) throws(OutputError) {
        let inPlace = output == nil
        let target = output ?? original.path
        var now = stat()
        guard original.path.withCString({ stat($0, &now) }) == 0 else {
            throw OutputError(path: target, reason: "the file is gone: \(Errno.current)", errno: .current)
        }
        if inPlace {
            let modified = FileTime(seconds: Int64(now.st_mtim.tv_sec), nanoseconds: Int32(now.st_mtim.tv_nsec))
            if Int64(now.st_size) != original.size || modified != original.modificationTime {
                throw OutputError(path: target, reason: "the file changed on disk since it was read; nothing was written")
            }
        }
        let file: OutputFile
        switch update {
        case .incremental(let size, let appended):
            guard size == original.size else {
                throw OutputError(path: target, reason: "the saved update does not follow the file as it is; nothing was written")
            }
            file = try open(target, inPlace: inPlace, mode: FilePermissions(rawValue: now.st_mode & 0o7777), original: original)
            try copy(original, bytes: size, to: file)
            try file.write(appended)
        case .rewritten(let bytes):
            if inPlace {
                throw OutputError(path: target, reason: "poppler had to rebuild this PDF (its cross-reference table is damaged), "
                                  + "so its original bytes cannot be kept; save a copy instead")
            }
            file = try open(target, inPlace: false, mode: nil, original: original)
            try file.write(bytes)
        case .image(let bytes):
            file = try open(target, inPlace: inPlace, mode: FilePermissions(rawValue: now.st_mode & 0o7777), original: original)
            try file.write(bytes)
        }
        try file.commit(durable: true)
    }

    /// Puts `bytes` (an image's bytes before Markup wrote it again) back in place, atomically,
    /// with the file's mode.
    public static func restore(_ path: DocumentPath, bytes: [UInt8]) throws(OutputError) {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else {
            throw OutputError(path: path, reason: "cannot revert: the file is gone: \(Errno.current)", errno: .current)
        }
        let file = try OutputFile(replacingInPlace: path, permissions: FilePermissions(rawValue: status.st_mode & 0o7777))
        try file.write(bytes)
        try file.commit(durable: true)
    }

    /// Reverts a PDF saved in place with incremental updates to the bytes it had before them:
    /// its first `originalSize` bytes (the size ``PDFUpdate/incremental(originalSize:appended:)``
    /// named), put in place atomically with the file's mode. Refused, with nothing written, when
    /// the file is now shorter or those bytes do not end a PDF (`%%EOF` within their last 32
    /// bytes): the file is no longer the one that was updated.
    public static func revert(_ path: DocumentPath, toOriginalSize size: Int64) throws(OutputError) {
        let current: InputFile
        do { current = try InputFile(path: path, maximumSize: Int64.max) } catch {
            throw OutputError(path: path, reason: "cannot revert: \(error.reason)")
        }
        guard size > 0, current.size >= size else {
            throw OutputError(path: path, reason: "cannot revert: the file is shorter than it was before the changes")
        }
        let tail: [UInt8]
        do { tail = try current.read(upTo: Int(min(32, size)), at: size - min(32, size)) } catch {
            throw OutputError(path: path, reason: "cannot revert: \(error.reason)")
        }
        let marker = Array("%%EOF".utf8)
        guard tail.count >= marker.count,
              (0...(tail.count - marker.count)).contains(where: { tail[$0..<$0 + marker.count].elementsEqual(marker) }) else {
            throw OutputError(path: path, reason: "cannot revert: the file no longer begins with the PDF it was before the changes")
        }
        var status = stat()
        guard fstat(current.descriptor.rawValue, &status) == 0 else {
            throw OutputError(path: path, reason: "cannot revert: \(Errno.current)", errno: .current)
        }
        let file = try OutputFile(replacingInPlace: path, permissions: FilePermissions(rawValue: status.st_mode & 0o7777))
        try copy(current, bytes: size, to: file)
        try file.commit(durable: true)
    }

    private static func open(_ target: DocumentPath, inPlace: Bool, mode: FilePermissions?, original: InputFile) throws(OutputError) -> OutputFile {
        if inPlace { return try OutputFile(replacingInPlace: target, permissions: mode) }
        return try OutputFile(path: target, inputs: [original.path])
    }

    /// The first `bytes` bytes of `original`, from its open descriptor, in 1 MiB reads.
    private static func copy(_ original: InputFile, bytes: Int64, to file: OutputFile) throws(OutputError) {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while offset < bytes {
            let want = Int(min(Int64(chunk), bytes - offset))
            let count: Int
            do { count = try original.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: offset) } catch {
                throw OutputError(path: file.path, reason: "cannot read the original: \(error.reason)")
            }
            guard count > 0 else { throw OutputError(path: file.path, reason: "the original ended early; nothing was written") }
            try file.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
    }
}
