#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// What a camera wrote of a shot: camera, lens, exposure, aperture, ISO, focal length, when it
/// was taken, the picture's size, and whether it records where (the place itself is not kept:
/// privacy by default).
public struct PhotoDetails: Sendable, Hashable, Codable {
    public var camera: String?
    public var lens: String?
    /// Seconds.
    public var exposureTime: Double?
    /// The f-number.
    public var aperture: Double?
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?
    /// When it was taken, seconds since 1970 as the camera's clock said (no time zone).
    public var taken: Int64?
    public var width: Int?
    public var height: Int?
    public var hasLocation: Bool
    /// Where it was taken, in degrees (north and east positive): read only when asked
    /// (``PhotoDetails/ofPhoto(_:includingLocation:)``, `info --show-location`), never otherwise.
    public var latitude: Double? = nil
    public var longitude: Double? = nil

    /// "Canon EOS 350D": the model, with the make in front unless the model already names it.
    static func camera(make: String?, model: String?) -> String? {
        guard let model else { return make }
        guard let make, !model.lowercased().hasPrefix(make.split(separator: " ").first.map { $0.lowercased() } ?? "") else { return model }
        return "\(make) \(model)"
    }

    /// "1/60 s", "2.5 s".
    static func exposureText(_ seconds: Double) -> String {
        if seconds >= 1 || seconds <= 0 { return "\(trimmed(seconds)) s" }
        return "1/\(Int((1 / seconds).rounded())) s"
    }

    static func trimmed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
    }

    /// "2005-03-10 14:05" (the camera's clock, shown as it is).
    static func dateText(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(seconds)" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// "48.858370° N, 2.294481° E".
    static func locationText(latitude: Double, longitude: Double) -> String {
        func degrees(_ value: Double) -> String {
            let millionths = Int((abs(value) * 1_000_000).rounded())
            let fraction = String(millionths % 1_000_000)
            return "\(millionths / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count) + fraction)°"
        }
        return "\(degrees(latitude)) \(latitude < 0 ? "S" : "N"), \(degrees(longitude)) \(longitude < 0 ? "W" : "E")"
    }

    /// The card's lines.
    public var cardRows: [CardRow] {
        var lines: [CardRow] = []
        if let camera { lines.append(CardRow("Camera", camera)) }
        if let lens { lines.append(CardRow("Lens", lens)) }
        var exposure: [String] = []
        if let exposureTime { exposure.append(Self.exposureText(exposureTime)) }
        if let aperture { exposure.append("f/\(Self.trimmed(aperture))") }
        if let iso { exposure.append("ISO \(iso)") }
        if let focalLength { exposure.append("\(Self.trimmed(focalLength)) mm") }
        if !exposure.isEmpty { lines.append(CardRow("Exposure", exposure.joined(separator: " · "))) }
        if let taken { lines.append(CardRow("Taken", Self.dateText(taken))) }
        if let width, let height, width > 0, height > 0 { lines.append(CardRow("Sensor", "\(width) × \(height) pixels")) }
        if let latitude, let longitude {
            lines.append(CardRow("Location", Self.locationText(latitude: latitude, longitude: longitude)))
        } else if hasLocation {
            lines.append(CardRow("Location", "recorded (not shown)"))
        }
        return lines
    }
}
