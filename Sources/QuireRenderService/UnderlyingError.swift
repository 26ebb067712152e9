/// The error a problem was made from, kept beside it on the in-process road (a one-shot command
/// reports a document error in its own words: its path, its remedy). Not carried over a
/// worker's pipe, and never compared or hashed: two problems are equal by what they say.
public struct UnderlyingError: Sendable, Hashable {
    public let error: (any Error & Sendable)?

    public init(_ error: (any Error & Sendable)?) {
        self.error = error
    }

    public static func == (_: UnderlyingError, _: UnderlyingError) -> Bool { true }
    public func hash(into _: inout Hasher) {}
}
