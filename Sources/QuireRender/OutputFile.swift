import QuireSystem
import QuireTypes

/// An output file written atomically (the system layer's ``AtomicReplacement``): bytes go to a
/// temporary file in the target's directory, which replaces the target only on ``commit()``.
/// If the object is released without committing, the temporary file is removed: a reader never
/// sees half a file and a failure leaves no partial output behind.
public final class OutputFile {
    /// The final path.
    public let path: DocumentPath
    private let replacement: AtomicReplacement

    /// Creates the temporary file beside `path`.
    /// - Parameter permissions: mode of the final file; nil means `0666` minus the umask.
    public init(path: DocumentPath, permissions: FilePermissions? = nil) throws(OutputError) {
        self.path = path
        let name = path.lastComponentBytes
        guard !name.isEmpty, name != Array("..".utf8), name != Array(".".utf8) else {
            throw OutputError(path: path, reason: "not a file name")
        }
        do { replacement = try AtomicReplacement(replacing: path.bytes, permissions: permissions) } catch {
            throw OutputError(path: path, error)
        }
    }

    /// The temporary file, for writers that stream into a descriptor (cairo).
    public var descriptor: FileDescriptor { replacement.descriptor }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        do { try replacement.write(bytes) } catch { throw OutputError(path: path, error) }
    }

    /// Appends raw bytes.
    public func write(_ raw: UnsafeRawBufferPointer) throws(OutputError) {
        do { try replacement.write(raw) } catch { throw OutputError(path: path, error) }
    }

    /// Closes the temporary file and renames it over the target.
    public func commit() throws(OutputError) {
        do { try replacement.commit() } catch { throw OutputError(path: path, error) }
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: DocumentPath, permissions: FilePermissions? = nil) throws(OutputError) {
        let file = try OutputFile(path: path, permissions: permissions)
        try file.write(bytes)
        try file.commit()
    }
}

extension OutputError {
    /// "cannot create output: …" or "cannot write output: …", from a failed replacement.
    init(path: DocumentPath, _ failure: AtomicReplacement.Failure) {
        let what = failure.step == .write ? "cannot write output" : "cannot create output"
        self.init(path: path, reason: "\(what): \(failure.errno)", errno: failure.errno)
    }
}
