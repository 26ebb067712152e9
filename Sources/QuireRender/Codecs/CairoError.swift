internal import CCairo

/// A cairo status copied into Swift.
public struct CairoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `cairo_status_t` value.
    public let status: Int32
    /// cairo's description of the status.
    public let message: String

    public init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(message) (cairo status \(status))" }

    /// nil for `CAIRO_STATUS_SUCCESS`.
    static func check(_ status: cairo_status_t) -> CairoError? {
        guard status != CAIRO_STATUS_SUCCESS else { return nil }
        return CairoError(status: Int32(status.rawValue), message: String(cString: libcairo.cairo_status_to_string(status)!))
    }
}
