/// An action a viewer offers for the current file, with the reason when it cannot be used.
/// Front-ends show an available action and leave an unavailable one out, keeping its reason
/// for when the user asks (a tooltip, the info card, a status message).
public struct ViewerAction: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case print
    }

    public let kind: Kind
    public let isAvailable: Bool
    /// Why it is unavailable; nil when available.
    public let reason: String?
    /// Extra detail when available ("converted to PDF; printer office").
    public let detail: String?

    public init(kind: Kind, isAvailable: Bool, reason: String?, detail: String?) {
        self.kind = kind
        self.isAvailable = isAvailable
        self.reason = reason
        self.detail = detail
    }
}
