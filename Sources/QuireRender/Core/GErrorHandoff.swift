internal import CPoppler
import QuireGIO

extension GLibError {
    /// Copies and frees a `GError` from one of the rendering libraries (poppler, gdk-pixbuf,
    /// librsvg) into QuireGIO's one GError wrapper.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> GLibError? {
        GLibError(taking: UnsafeMutableRawPointer(error))
    }
}
