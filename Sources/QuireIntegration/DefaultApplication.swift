internal import CGIO
import FoundationEssentials
import Quire

/// Opens a file with the desktop's default application for its type, through GIO
/// (`g_app_info_launch_default_for_uri`): the same choice a file manager makes, and no shell
/// or `xdg-open` in between.
public enum DefaultApplication {
    /// Opens `path` (an absolute path) with the default handler of its type.
    public static func open(_ path: DocumentPath) throws(OpenError) {
        var gerror: UnsafeMutablePointer<GError>?
        let uri: String? = path.withCString { cPath in
            guard let raw = g_filename_to_uri(cPath, nil, &gerror) else { return nil }
            defer { g_free(raw) }
            return String(cString: raw)
        }
        guard let uri else { throw OpenError(path: path, gerror: gerror, reason: "cannot make a URI for it") }
        if g_app_info_launch_default_for_uri(uri, nil, &gerror) == 0 {
            throw OpenError(path: path, gerror: gerror, reason: "no application could open it")
        }
    }

    /// A preview could not be handed to a viewer.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public let path: DocumentPath
        public let reason: String
        public let domain: String?
        public let code: Int32?

        init(path: DocumentPath, gerror: UnsafeMutablePointer<GError>?, reason: String) {
            self.path = path
            if let gerror {
                self.reason = reason + ": " + String(cString: gerror.pointee.message)
                domain = g_quark_to_string(gerror.pointee.domain).map { String(cString: $0) }
                code = gerror.pointee.code
                g_error_free(gerror)
            } else {
                self.reason = reason
                domain = nil
                code = nil
            }
        }

        public var description: String { "\(path): \(reason)" }
    }
}
