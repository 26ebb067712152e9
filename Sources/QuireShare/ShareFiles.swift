#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireGIO
import QuireSystem
import QuireTypes

/// The files of one share, each checked and opened: a regular file that can be read now. Opened
/// before anything is sent, so that a file that vanished or became unreadable since it was
/// shown stops the share with nothing sent; the open descriptors are what the mail portal
/// receives, so the bytes attached are the ones checked. Descriptors are closed with the value.
package final class ShareFiles: Sendable {
    /// At most this many files go in one share (a mail's attachments, a device's transfers).
    package static let limit = 64

    package struct File: Sendable {
        /// As given.
        package let path: DocumentPath
        /// Absolute, for the `file://` URI and for programs started elsewhere.
        package let absolutePath: [UInt8]
        package let uri: String
        package let descriptor: FileDescriptor
        /// The file's name for messages (control characters escaped, as everywhere in Quire).
        package var name: String { path.displayName }
        /// The file's name as one line of text (a mail's subject): control characters become spaces.
        package var plainName: String {
            String(String.UnicodeScalarView(String(decoding: path.lastComponentBytes, as: UTF8.self).unicodeScalars.map {
                $0.properties.generalCategory == .control ? " " : $0
            }))
        }
        /// The absolute path as text (what `xdg-email` and devices are given).
        package var absoluteString: String { String(decoding: absolutePath, as: UTF8.self) }
    }

    package let files: [File]

    /// Checks and opens `paths` (relative ones against the working directory).
    package init(_ paths: [DocumentPath]) throws(ShareError) {
        guard !paths.isEmpty else { throw ShareError(.file, "no file to share") }
        guard paths.count <= Self.limit else {
            throw ShareError(.tooMany, "\(paths.count) files: at most \(Self.limit) can be shared at once; nothing was sent")
        }
        var opened: [File] = []
        func closeAll() { for file in opened { try? file.descriptor.close() } }
        for path in paths {
            let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
            guard descriptor >= 0 else {
                let error = Errno.current
                closeAll()
                let why = error == .noSuchFileOrDirectory ? "the file is no longer there" : "cannot be read: \(error)"
                throw ShareError(.file, "\(path): \(why); nothing was sent", errno: error)
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                _ = close(descriptor)
                closeAll()
                throw ShareError(.file, "\(path): not a regular file; nothing was sent")
            }
            // Back to blocking reads for whoever reads it (the flag only kept a FIFO from hanging the open).
            _ = fcntl(descriptor, F_SETFL, O_RDONLY)
            guard let absolute = FileURI.canonicalPath(path.bytes), let uri = FileURI.uri(forPath: absolute) else {
                _ = close(descriptor)
                closeAll()
                throw ShareError(.file, "\(path): has no file URI; nothing was sent")
            }
            opened.append(File(path: path, absolutePath: absolute, uri: uri, descriptor: FileDescriptor(rawValue: descriptor)))
        }
        files = opened
    }

    deinit {
        for file in files { try? file.descriptor.close() }
    }

    /// The subject a mail gets when none is given: the file's name, or the first names.
    package var defaultSubject: String {
        // A name with a line break or a control character is still one line of subject.
        let names = files.map(\.plainName)
        switch names.count {
        case 1: return names[0]
        case 2, 3: return names.joined(separator: ", ")
        default: return "\(names[0]) and \(names.count - 1) more files"
        }
    }
}
