import QuireRender
import QuireTypes

/// Why the worker could not open a document or render a page, in words for people (without
/// the file name), with a stable kind; the viewers show it and ask for a password when the
/// kind says one would help.
public struct RenderProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The file is missing, unreadable, not a regular file, empty or too large.
        case unreadable
        /// The content is damaged or not what its type says.
        case damaged
        /// An encrypted document: a password is needed.
        case passwordRequired
        /// A wrong password was given.
        case wrongPassword
        /// No engine shows this type.
        case unsupported
        /// Over a limit (pages, pixels, size).
        case limitExceeded
        /// The worker crashed, was killed or took longer than its time limit.
        case workerFailed
        /// The request was dropped before it finished: nothing wanted it any more.
        case cancelled
    }

    public let kind: Kind
    /// One line for people, without the file name.
    public let message: String
    /// The file's type, when the worker got as far as sniffing it (for the card of a file that
    /// cannot be shown).
    public var mimeType: String?

    /// The document or input error this problem was made from, on the in-process road
    /// (``RenderClient/init(inProcess:interpreters:software:)``).
    public private(set) var underlying = UnderlyingError(nil)

    /// The document error this problem was made from (an input error as one), on the
    /// in-process road: its path, remedy and underlying C error for a command's own message.
    public var documentError: DocumentError? {
        (underlying.error as? DocumentError) ?? (underlying.error as? InputError).map(DocumentError.init)
    }

    public var description: String { message }
    /// Whether asking for a password could help (a viewer asks).
    public var needsPassword: Bool { kind == .passwordRequired || kind == .wrongPassword }

    public init(_ kind: Kind, _ message: String, mimeType: String? = nil) {
        self.kind = kind
        self.message = message
        self.mimeType = mimeType
    }

    /// A document error in the viewers' words.
    public init(_ error: DocumentError, passwordGiven: Bool) {
        defer { underlying = UnderlyingError(error) }
        if let input = error.inputError {
            self.init(input)
            return
        }
        switch error.kind {
        case .passwordRequired:
            self.init(passwordGiven ? .wrongPassword : .passwordRequired,
                      passwordGiven ? "wrong password" : "password-protected: type its password")
        case .damaged: self.init(.damaged, "damaged: \(error.reason)")
        case .unsupported: self.init(.unsupported, error.reason)
        case .limitExceeded: self.init(.limitExceeded, error.reason)
        case .input: self.init(.unreadable, error.reason)
        }
    }

    public init(_ error: InputError) {
        self.init(.unreadable, error.reason)
        underlying = UnderlyingError(error)
    }

    func write(to writer: inout WireWriter) {
        writer.string(kind.rawValue)
        writer.string(message)
        writer.optionalString(mimeType)
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        guard let kind = Kind(rawValue: try reader.string()) else { throw WireReader.Malformed() }
        let message = try reader.string()
        self.init(kind, message, mimeType: try reader.optionalString())
    }
}
