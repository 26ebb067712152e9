import Quire
import QuireRenderService

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
        /// The renderer crashed, was killed or took longer than its time limit: the file itself
        /// may be fine (a long document on a busy machine), so it is not called damaged.
        case rendererFailed
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

    /// The render service's problem in the viewer's words (a worker that crashed, hung or was
    /// killed says so, with the reason; a dropped request as the renderer's failure too).
    public init(_ problem: RenderProblem) {
        switch problem.kind {
        case .unreadable: self.init(kind: .unreadable, message: problem.message)
        case .damaged: self.init(kind: .damaged, message: problem.message)
        case .workerFailed, .cancelled: self.init(kind: .rendererFailed, message: problem.message)
        case .passwordRequired: self.init(kind: .passwordRequired, message: problem.message)
        case .wrongPassword: self.init(kind: .wrongPassword, message: problem.message)
        case .unsupported: self.init(kind: .unsupported, message: problem.message)
        case .limitExceeded: self.init(kind: .limitExceeded, message: problem.message)
        }
    }

    init(_ error: InputError) {
        self.init(kind: .unreadable, message: error.reason)
    }
}
