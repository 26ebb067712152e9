internal import QuireGIO
import FoundationEssentials
import Quire

/// Opens a file with the desktop's default application for its type, through GIO
/// (`g_app_info_launch_default_for_uri`): the same choice a file manager makes, and no shell
/// or `xdg-open` in between.
public enum DefaultApplication {
    /// Opens `path` (relative paths against the working directory) with the default handler of
    /// its type, by its canonical `file://` URI (``FileURI``).
    public static func open(_ path: DocumentPath) throws(OpenError) {
        guard let uri = FileURI.uri(forPath: path.bytes) else {
            throw OpenError(path: path, reason: "the path cannot be written as a file:// URI")
        }
        do {
            try DefaultHandler.launch(uri: uri)
        } catch {
            throw OpenError(path: path, error)
        }
    }

    /// A preview could not be handed to a viewer.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public let path: DocumentPath
        public let reason: String
        public let domain: String?
        public let code: Int32?

        init(path: DocumentPath, reason: String) {
            self.path = path
            self.reason = reason
            domain = nil
            code = nil
        }

        init(path: DocumentPath, _ error: GIOError) {
            self.path = path
            reason = error.description
            domain = error.domain
            code = error.code
        }

        public var description: String { "\(path): \(reason)" }
    }
}
