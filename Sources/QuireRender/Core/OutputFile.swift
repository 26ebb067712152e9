#if canImport(Glibc)
import Glibc
#endif
import QuireSystem
import QuireTypes

/// An output file, written where the command line's name says as `cp` and `install` would
/// (``OutputTarget``, the one place for that choice): a regular file or a new name is written
/// atomically (the system layer's ``AtomicReplacement``: bytes go to a temporary file in the
/// target's directory, which replaces the target only on ``commit()``; released without a
/// commit, the temporary file is removed, so a reader never sees half a file and a failure
/// leaves no partial output behind); a symbolic link is followed and what it points to is
/// replaced, the link kept; a character device or FIFO is written to directly; `-` is standard
/// output; a directory, a block device, a socket or one of `inputs` is refused before anything
/// is written.
public final class OutputFile {
    /// The final path as given.
    public let path: DocumentPath
    private enum Sink {
        case replacement(AtomicReplacement)
        /// A device, FIFO or standard output: written as it goes; `owned` descriptors are closed
        /// on commit (standard output is not).
        case direct(FileDescriptor, owned: Bool)
    }
    private let sink: Sink
    private var committed = false

    /// Opens the output (the temporary file beside `path`, or the device, FIFO or standard
    /// output itself).
    /// - Parameters:
    ///   - permissions: mode of a new or replaced file; nil means `0666` minus the umask.
    ///   - inputs: the files the command reads; naming one of them as the output is refused.
    public init(path: DocumentPath, permissions: FilePermissions? = nil, inputs: [DocumentPath] = []) throws(OutputError) {
        self.path = path
        switch try Self.target(path, inputs: inputs) {
        case .standardOutput:
            sink = .direct(.standardOutput, owned: false)
        case .direct(let device):
            do { sink = .direct(try OutputTarget.openDirect(device), owned: true) } catch {
                throw OutputError(path: path, reason: "cannot open output: \(error)", errno: error)
            }
        case .replace(let file):
            do { sink = .replacement(try AtomicReplacement(replacing: file, permissions: permissions)) } catch {
                throw OutputError(path: path, error)
            }
        }
    }

    /// Opens a replacement of the existing file `path` itself — a document saved in place, which
    /// ``init(path:permissions:inputs:)`` refuses as an input — with `permissions` (the file's
    /// own, kept). A symbolic link is followed: what it points to is replaced, the link kept.
    public init(replacingInPlace path: DocumentPath, permissions: FilePermissions?) throws(OutputError) {
        self.path = path
        let resolved: [UInt8]
        if let real = path.withCString({ realpath($0, nil) }) {
            resolved = Array(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real)))
            free(real)
        } else {
            throw OutputError(path: path, reason: "cannot save in place: \(Errno.current)", errno: .current)
        }
        do { sink = .replacement(try AtomicReplacement(replacing: resolved, permissions: permissions)) } catch {
            throw OutputError(path: path, error)
        }
    }

    deinit {
        if !committed, case .direct(let descriptor, owned: true) = sink { try? descriptor.close() }
    }

    /// Checks, before any work, that `path` can be an output (see ``OutputTarget``); throws the
    /// refusal a later ``init(path:permissions:inputs:)`` would. Nothing is created or opened.
    public static func check(_ path: DocumentPath, inputs: [DocumentPath] = []) throws(OutputError) {
        _ = try target(path, inputs: inputs)
    }

    /// Whether `path` names standard output (`-`).
    public static func isStandardOutput(_ path: DocumentPath) -> Bool { path.bytes == [UInt8(ascii: "-")] }

    private static func target(_ path: DocumentPath, inputs: [DocumentPath]) throws(OutputError) -> OutputTarget {
        let name = path.lastComponentBytes
        guard !name.isEmpty, name != Array("..".utf8), name != Array(".".utf8) else {
            throw OutputError(path: path, reason: "not a file name", kind: .notWritable)
        }
        do { return try OutputTarget.resolve(path.bytes, inputs: inputs.map(\.bytes)) } catch {
            throw OutputError(path: path, reason: error.reason, errno: error.errno,
                              kind: error.kind == .sameAsInput ? .sameAsInput : .notWritable)
        }
    }

    /// Where bytes go, for writers that stream into a descriptor (cairo).
    public var descriptor: FileDescriptor {
        switch sink {
        case .replacement(let replacement): return replacement.descriptor
        case .direct(let descriptor, _): return descriptor
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        try bytes.withUnsafeBytes { raw in Result { () throws(OutputError) in try write(raw) } }.get()
    }

    /// Appends raw bytes.
    public func write(_ raw: UnsafeRawBufferPointer) throws(OutputError) {
        switch sink {
        case .replacement(let replacement):
            do { try replacement.write(raw) } catch { throw OutputError(path: path, error) }
        case .direct(let descriptor, _):
            do { try descriptor.writeAll(raw) } catch {
                throw OutputError(path: path, reason: "cannot write output: \(error)", errno: error)
            }
        }
    }

    /// Puts the file in place (closes the temporary file and renames it over the target), or
    /// closes the device or FIFO.
    public func commit(durable: Bool = false) throws(OutputError) {
        guard !committed else { return }
        committed = true
        switch sink {
        case .replacement(let replacement):
            do { try replacement.commit(durable: durable) } catch { throw OutputError(path: path, error) }
        case .direct(let descriptor, let owned):
            guard owned else { return }
            do { try descriptor.close() } catch {
                throw OutputError(path: path, reason: "cannot write output: \(error)", errno: error)
            }
        }
    }

    /// Writes `bytes` to `path` (see the type's rules), refusing any of `inputs`.
    public static func write(_ bytes: [UInt8], to path: DocumentPath, permissions: FilePermissions? = nil,
                             inputs: [DocumentPath] = []) throws(OutputError) {
        let file = try OutputFile(path: path, permissions: permissions, inputs: inputs)
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
