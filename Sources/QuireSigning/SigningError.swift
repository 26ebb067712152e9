/// Why signing failed, in one line for the person, with NSS's error (its number and name) where
/// NSS gave one.
public struct SigningError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// NSS is not installed.
        case unavailable
        /// The certificate database cannot be opened.
        case database
        /// No certificate of that name, or it has no private key.
        case certificate
        /// The key's password is needed, or the one given is wrong.
        case password
        /// The document cannot take a signature (no room, not the update asked for).
        case document
        /// NSS could not make the signature.
        case signing
    }

    public let kind: Kind
    public let message: String
    /// NSS's error code (PORT_GetError) and its name, e.g. SEC_ERROR_BAD_PASSWORD.
    public let code: Int32?
    public let codeName: String?

    public init(_ kind: Kind, _ message: String, code: Int32? = nil, codeName: String? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
        self.codeName = codeName
    }

    public var description: String {
        codeName.map { "\(message) (\($0))" } ?? message
    }
}
