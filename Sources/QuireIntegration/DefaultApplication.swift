internal import QuireGIO
import FoundationEssentials
import Quire

/// Opens a file with the desktop's default application for its type, through GIO
/// (`g_app_info_launch_default_for_uri`): the same choice a file manager makes, and no shell
/// or `xdg-open` in between.
public enum DefaultApplication {
    /// Opens `path` (an absolute path) with the default handler of its type.
    public static func open(_ path: DocumentPath) throws(OpenError) {
        do {
            try DefaultHandler.launch(uri: try FileURI.uri(forAbsolutePath: path.bytes))
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
