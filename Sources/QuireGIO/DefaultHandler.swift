internal import CGIO

/// The desktop's default application for a URI's type, through GIO: the same choice a file
/// manager makes, with no shell or `xdg-open` in between.
package enum DefaultHandler {
    /// Launches the default handler for `uri` (`g_app_info_launch_default_for_uri`).
    package static func launch(uri: String) throws(GIOError) {
        var gerror: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(uri, nil, &gerror) == 0 {
            throw GIOError("no application could open it", taking: gerror)
        }
    }
}
