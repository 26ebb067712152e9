/// A rendering failure with a stable kind (`unsupported`, `damaged`, …) and a reason.
public struct ThumbnailRenderingError: Error, Sendable, CustomStringConvertible {
    public let kind: String
    public let reason: String

    public init(kind: String, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
