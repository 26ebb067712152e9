internal import CCUPS

/// Which CUPS scheduler to talk to.
///
/// ``PrintServer/default`` follows libcups: `CUPS_SERVER`, then `~/.cups/client.conf` and
/// `/etc/cups/client.conf`, then the local scheduler. Give a host and port to talk to another
/// scheduler (tests use a private one on loopback).
public struct PrintServer: Sendable, Hashable, CustomStringConvertible {
    /// Host name, address or domain-socket path; nil for libcups' choice.
    public let host: String?
    /// Port; nil for libcups' choice (`IPP_PORT`, 631).
    public let port: Int?

    public init(host: String? = nil, port: Int? = nil) {
        self.host = host
        self.port = port
    }

    /// Parses "host:port", "host" or a socket path.
    public init(_ text: String) {
        if !text.hasPrefix("/"), let colon = text.lastIndex(of: ":"),
           let port = Int(text[text.index(after: colon)...]) {
            self.init(host: String(text[..<colon]), port: port)
        } else {
            self.init(host: text, port: nil)
        }
    }

    /// The scheduler libcups would use.
    public static let `default` = PrintServer()

    /// Host and port after applying libcups' defaults.
    var resolved: (host: String, port: Int) {
        let host = self.host ?? libcups.cupsServer().map { String(cString: $0) } ?? "localhost"
        return (host, port ?? Int(libcups.ippPort()))
    }

    public var description: String {
        let (host, port) = resolved
        return host.hasPrefix("/") ? host : "\(host):\(port)"
    }
}
