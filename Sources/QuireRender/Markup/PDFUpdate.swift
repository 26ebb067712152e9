#if canImport(Glibc)
import Glibc
#endif
internal import CPoppler
import QuireGIO
import QuireSystem
import QuireTypes

/// A changed document as the worker saved it. A PDF: an incremental update — the original bytes
/// first and unchanged, then the update (`appended`) — or, where poppler could not append (it
/// had to rebuild the file), the whole new file. An image turned or cropped: the whole new file,
/// which is its format's way (``ImageRewriting``).
public enum PDFUpdate: Sendable, Hashable {
    /// The original file's `originalSize` bytes followed by `appended`.
    case incremental(originalSize: Int64, appended: [UInt8])
    /// A new PDF that does not begin with the original's bytes (saved only as a copy).
    case rewritten([UInt8])
    /// An image written again whole (saved in place too; Revert keeps the original's bytes).
    case image([UInt8])
}

extension PDFDocument {
    /// Saves the document with its changes (poppler's standard mode: an incremental update when
    /// objects changed) and compares the result with `original`, the file it was opened from.
    /// The bytes go through an unnamed temporary file in `$TMPDIR` (the worker's private `/tmp`).
    ///
    /// `turns`: pages to turn (0-based page → quarter turns clockwise), appended as an update
    /// of their own after poppler's (``PDFRotationUpdate``).
    ///
    /// `annotations`: those ``add(_:)`` put on the pages, in the order added: their appearance
    /// streams (and what poppler could not write of them: ink, arrowheads, line widths) are
    /// written in that update too.
    ///
    /// `flatten`: the form's widgets drawn into their pages' content and the form removed
    /// (``FormFlattening``), in that update too.
    ///
    /// `moves`: annotations already in the file moved or resized (``AnnotationMove``), named as listed
    /// before `removed` (page → places as listed) were removed by ``remove(_:)``.
    ///
    /// `signature`: a signature field with room for its signature (``SignatureField``), alone.
    public func savedUpdate(original: InputFile, turns: [Int: Int] = [:], annotations: [PageAnnotation] = [],
                            flatten: Bool = false, moves: [AnnotationMove] = [], removed: [Int: [Int]] = [:],
                            signature: SignatureField? = nil) throws(DocumentError) -> PDFUpdate {
        var saved = try savedBytes()
        let turned = turns.filter { $0.value % 4 != 0 }
        let moved = moves.filter { $0.dx != 0 || $0.dy != 0 || $0.resizes }
        if !turned.isEmpty || !annotations.isEmpty || flatten || !moved.isEmpty || signature != nil {
            saved = try PDFAppendedUpdate.append(turned, annotations: annotations, flatten: flatten, moves: moved, removed: removed,
                                                 signature: signature, to: saved, path: path)
        }
        let size = original.size
        if Int64(saved.count) >= size {
            var same = true
            var offset: Int64 = 0
            let chunk = 1 << 20
            while offset < size {
                let want = Int(min(Int64(chunk), size - offset))
                let part: [UInt8]
                do { part = try original.read(upTo: want, at: offset) } catch { throw DocumentError(error) }
                let equal = part.count == want && saved.withUnsafeBytes { whole in
                    part.withUnsafeBytes { memcmp(whole.baseAddress! + Int(offset), $0.baseAddress!, want) == 0 }
                }
                if !equal {
                    same = false
                    break
                }
                offset += Int64(want)
            }
            if same { return .incremental(originalSize: size, appended: Array(saved[Int(size)...])) }
        }
        return .rewritten(saved)
    }

    /// The document as poppler writes it with its changes (`poppler_document_save`, which opens
    /// and closes the file itself: its descriptor variant leaves the last buffer unflushed).
    func savedBytes() throws(DocumentError) -> [UInt8] {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/quire-save-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw DocumentError(kind: .input, path: path, reason: "cannot make a temporary file to save into: \(Errno.current)")
        }
        close(fd)
        let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { _ = unlink(name) }
        let uri: String
        do { uri = try FileURI.uri(forAbsolutePath: Array(name.utf8)) } catch {
            throw DocumentError(kind: .input, path: path, reason: "cannot name the temporary file: \(error)")
        }
        var gerror: UnsafeMutablePointer<GError>?
        guard libpoppler.poppler_document_save(document, uri, &gerror) != 0 else {
            let error = GLibError.take(gerror)
            throw DocumentError(kind: .damaged, path: path, reason: "poppler could not save it (\(error?.message ?? "no reason given"))",
                                underlying: error)
        }
        _ = GLibError.take(gerror)
        let saved: InputFile
        do { saved = try InputFile(path: DocumentPath(name), maximumSize: Int64.max) } catch {
            throw DocumentError(kind: .input, path: path, reason: "cannot read back the saved file: \(error.reason)")
        }
        do { return try saved.read(upTo: Int(saved.size)) } catch {
            throw DocumentError(kind: .input, path: path, reason: "cannot read back the saved file: \(error.reason)")
        }
    }
}
