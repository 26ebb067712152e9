/// One file Quire installs into the desktop: where it goes (relative to the XDG data
/// directory, e.g. `thumbnailers/quire.thumbnailer`), what it holds and what it is for.
public struct IntegrationFile: Sendable, Hashable {
    public let relativePath: String
    public let contents: String
    public let executable: Bool
    public let purpose: String

    public init(relativePath: String, contents: String, executable: Bool = false, purpose: String) {
        self.relativePath = relativePath
        self.contents = contents
        self.executable = executable
        self.purpose = purpose
    }
}
