/// A paired phone, tablet or computer that files can be sent to now, through KDE Connect's
/// daemon or GSConnect (GNOME Shell's implementation of the same protocol).
package struct ShareDevice: Sendable, Hashable {
    package enum Service: String, Sendable, Hashable {
        case kdeConnect = "kdeconnect"
        case gsconnect = "gsconnect"

        /// The program's name, for the user.
        package var displayName: String {
            switch self {
            case .kdeConnect: return "KDE Connect"
            case .gsconnect: return "GSConnect"
            }
        }
    }

    /// The service's id for the device.
    package let id: String
    /// The name the user gave it.
    package let name: String
    package let service: Service
    /// The device's object on the session bus.
    let objectPath: String
}
