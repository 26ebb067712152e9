import QuireTypes
import QuireGIO

/// Why a document's content could not be read. Carries the user's message and, where it came
/// from a C library, the underlying error.
public struct DocumentError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// The content is damaged, truncated or not of the type it claims.
        case damaged
        /// The document is encrypted and needs a password (none or a wrong one was given).
        case passwordRequired = "password-required"
        /// The format is recognised but Quire cannot read it.
        case unsupported
        /// A limit (size, pixels, pages…) was exceeded.
        case limitExceeded = "limit-exceeded"
        /// The file itself could not be opened.
        case input
    }

    public let kind: Kind
    public let path: DocumentPath?
    /// The reason, without the file name.
    public let reason: String
    /// The underlying GLib error, if any.
    public let underlying: GLibError?
    /// The underlying input error, if any.
    public let inputError: InputError?
    /// The underlying cairo status, if any.
    public let cairo: CairoError?
    /// Which setting would change the outcome (a limit to raise, a password to give), if any.
    public let remedy: Remedy?

    public init(kind: Kind, path: DocumentPath?, reason: String, underlying: GLibError? = nil,
                cairo: CairoError? = nil, remedy: Remedy? = nil) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.underlying = underlying
        self.inputError = nil
        self.cairo = cairo
        self.remedy = remedy
    }

    public init(_ input: InputError) {
        self.kind = .input
        self.path = input.path
        self.reason = input.reason
        self.underlying = nil
        self.inputError = input
        self.cairo = nil
        self.remedy = input.remedy
    }

    /// `PATH: reason` on one line.
    public var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }
}
