import Quire

/// Why the current file cannot be shown, in the viewer's words, and whether asking for a
/// password could help.
public struct ViewerProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file is missing, unreadable, not a regular file, empty or too large.
        case unreadable
        /// The content is damaged or not what its type says.
        case damaged
        /// An encrypted PDF: ask for the password (``ViewerModel/unlock(password:)``).
        case passwordRequired
        /// A wrong password was given.
        case wrongPassword
        /// Quire cannot show this type.
        case unsupported
        /// Over a limit (pages, pixels, size).
        case limitExceeded
    }

    public let kind: Kind
    /// One line for people, without the file name.
    public let message: String

    public var description: String { message }
    public var needsPassword: Bool { kind == .passwordRequired || kind == .wrongPassword }

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ error: DocumentError, passwordGiven: Bool) {
        if let input = error.inputError {
            self.init(input)
            return
        }
        switch error.kind {
        case .passwordRequired:
            self.init(kind: passwordGiven ? .wrongPassword : .passwordRequired,
                      message: passwordGiven ? "wrong password" : "password-protected: type its password")
        case .damaged: self.init(kind: .damaged, message: "damaged: \(error.reason)")
        case .unsupported: self.init(kind: .unsupported, message: error.reason)
        case .limitExceeded: self.init(kind: .limitExceeded, message: error.reason)
        case .input: self.init(kind: .unreadable, message: error.reason)
        }
    }

    init(_ error: InputError) {
        self.init(kind: .unreadable, message: error.reason)
    }
}
