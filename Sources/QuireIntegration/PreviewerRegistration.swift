import FoundationEssentials

/// Quire as the file manager's previewer: the D-Bus activation file for
/// `org.gnome.NautilusPreviewer` (the name GNOME Sushi owns, which Nautilus calls on Space), and
/// who else provides that name in the session's service directories.
public enum PreviewerRegistration {
    public static let busName = "org.gnome.NautilusPreviewer"
    public static let relativePath = "dbus-1/services/org.gnome.NautilusPreviewer.service"

    /// Whether `quire integrate` installs the previewer file.
    public enum Choice: Sendable, Equatable {
        /// Never (the library's default).
        case never
        /// Only when no other `.service` file provides the name (the CLI's default).
        case ifUnclaimed
        /// Always (`--previewer`); still never over a file Quire did not write.
        case always
    }

    public static func file(executable quire: String) -> IntegrationFile {
        IntegrationFile(relativePath: relativePath, contents: """
            [D-BUS Service]
            Name=\(busName)
            Exec=\(quire) look --service

            """, purpose: "D-Bus activation of Quire's Quick Look window as the previewer Nautilus calls on Space")
    }

    /// A `.service` file that provides the previewer name.
    public struct Provider: Sendable, Equatable, Codable {
        public let path: String
        /// Whether it starts Quire (`quire look --service`) rather than another previewer.
        public let isQuire: Bool
        /// The program it starts (its `Exec=` line), e.g. GNOME Sushi's
        /// `/usr/libexec/org.gnome.NautilusPreviewer`.
        public let exec: String?
    }

    /// Every `.service` file that provides the previewer name, in the order the session bus
    /// searches them (`$XDG_DATA_HOME/dbus-1/services`, then each of `$XDG_DATA_DIRS`): the
    /// first is the one D-Bus activation starts.
    public static func providers(environment: [String: String]) -> [Provider] {
        let home = environment["HOME"] ?? ""
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        var found: [Provider] = []
        for directory in [dataHome] + dataDirs {
            let services = directory + "/dbus-1/services"
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: services) else { continue }
            for name in names.sorted() where name.hasSuffix(".service") {
                let path = services + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                let lines = text.split(separator: "\n")
                let provides = lines.contains { $0.filter { !$0.isWhitespace } == "Name=\(busName)" }
                if provides, !found.contains(where: { $0.path == path }) {
                    let exec = lines.first { $0.hasPrefix("Exec=") }.map { String($0.dropFirst("Exec=".count)) }
                    found.append(Provider(path: path, isQuire: text.contains(" look --service"), exec: exec))
                }
            }
        }
        return found
    }

    /// The `.service` files other than `own` that provide the previewer name and are not
    /// Quire's, in the order the session bus searches them.
    public static func otherProviders(environment: [String: String], own: String) -> [String] {
        providers(environment: environment).filter { $0.path != own && !$0.isQuire }.map(\.path)
    }
}
