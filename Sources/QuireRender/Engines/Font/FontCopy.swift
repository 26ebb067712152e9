#if canImport(Glibc)
import Glibc
#endif
import QuireTypes
import QuireSystem

/// A private copy of a font file under a name no other font ever had (`mkstemp`), removed when
/// the specimen is done with it.
///
/// Pango and cairo open a font by the file name fontconfig recorded, when they first draw, and
/// cairo keeps faces in a process-wide cache keyed by that name. `/proc/self/fd/N` would be
/// reused for the next font a warm worker opens with the same descriptor number — drawn, from
/// the cache, in the previous one — and the document's own path can change under us. A unique
/// copy is read once, at open, and is the file that was typed.
final class FontCopy {
    let path: String

    init(of file: InputFile, limits: RenderLimits) throws(DocumentError) {
        guard file.size <= Int64(limits.maximumInflatedBytes) else {
            throw DocumentError(kind: .limitExceeded, path: file.path,
                                reason: "the font is larger than \(limits.maximumInflatedBytes >> 20) MB")
        }
        let directory = TemporaryFolder.path
        var template = Array("\(directory)/quire-font-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "cannot make a private copy of the font in \(directory) (errno \(errno))")
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { close(descriptor) }
        var offset: Int64 = 0
        while offset < file.size {
            let chunk: [UInt8]
            do throws(InputError) { chunk = try file.read(upTo: 1 << 20, at: offset) } catch {
                unlink(path)
                throw DocumentError(error)
            }
            if chunk.isEmpty { break }
            var written = 0
            while written < chunk.count {
                let result = chunk[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    unlink(path)
                    throw DocumentError(kind: .unsupported, path: file.path, reason: "cannot copy the font to \(directory) (errno \(errno))")
                }
                written += result
            }
            offset += Int64(chunk.count)
        }
    }

    deinit {
        unlink(path)
    }
}
