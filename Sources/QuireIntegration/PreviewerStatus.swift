#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
internal import QuireGIO

/// Who answers Nautilus's Space: Quire's D-Bus activation file in one data directory, every
/// `.service` file that provides `org.gnome.NautilusPreviewer` (the first is what activation
/// starts), and the process that owns the name on the session bus now, if any.
public struct PreviewerStatus: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        /// Quire's file, as this quire would write it.
        case installed
        /// Quire's file from another version or path (install again).
        case outdated
        /// Quire's file, edited since install.
        case modified
        /// No file here.
        case missing
        /// Another previewer's file (a system Sushi's): Quire leaves it alone.
        case foreign
    }

    /// The process that owns the name now.
    public struct Owner: Sendable, Equatable, Codable {
        public let uniqueName: String
        public let pid: UInt32?
        /// Its command line (from /proc), when readable.
        public let command: String?
    }

    public let busName: String
    /// Where Quire's activation file goes in this scope.
    public let path: String
    public let state: State
    /// Every provider, in the order the session bus searches them.
    public let providers: [PreviewerRegistration.Provider]
    /// The first provider: what D-Bus activation starts.
    public var activatedFrom: PreviewerRegistration.Provider? { providers.first }
    /// Whether the session bus could be asked who owns the name now.
    public let busReachable: Bool
    /// The name's owner now; nil when nobody owns it (or the bus was not reachable).
    public let owner: Owner?

    enum CodingKeys: String, CodingKey {
        case busName, path, state, providers, activatedFrom, busReachable, owner
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(busName, forKey: .busName)
        try container.encode(path, forKey: .path)
        try container.encode(state, forKey: .state)
        try container.encode(providers, forKey: .providers)
        try container.encode(activatedFrom, forKey: .activatedFrom)
        try container.encode(busReachable, forKey: .busReachable)
        try container.encode(owner, forKey: .owner)
    }

    public init(busName: String, path: String, state: State, providers: [PreviewerRegistration.Provider],
                busReachable: Bool, owner: Owner?) {
        self.busName = busName
        self.path = path
        self.state = state
        self.providers = providers
        self.busReachable = busReachable
        self.owner = owner
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        busName = try container.decode(String.self, forKey: .busName)
        path = try container.decode(String.self, forKey: .path)
        state = try container.decode(State.self, forKey: .state)
        providers = try container.decode([PreviewerRegistration.Provider].self, forKey: .providers)
        busReachable = try container.decode(Bool.self, forKey: .busReachable)
        owner = try container.decodeIfPresent(Owner.self, forKey: .owner)
    }

    /// Asks the session bus who owns the previewer name. Only a bus that is already running
    /// is asked (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`): none is started.
    static func currentOwner(environment: [String: String]) -> (reachable: Bool, owner: Owner?) {
        var address = environment["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        if address == nil, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty,
           access(runtime + "/bus", F_OK) == 0 {
            address = "unix:path=" + runtime + "/bus"
        }
        guard let address, let connection = try? DBusConnection(address: address) else { return (false, nil) }
        guard let (unique, pid) = connection.nameOwner(PreviewerRegistration.busName) else { return (true, nil) }
        return (true, Owner(uniqueName: unique, pid: pid, command: pid.flatMap(commandLine)))
    }

    /// `/proc/PID/cmdline` with its arguments joined by spaces.
    static func commandLine(_ pid: UInt32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).dropLast(data.last == 0 ? 1 : 0)
        return arguments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }
}
