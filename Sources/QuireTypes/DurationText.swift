/// A length of time as a clock shows it: "3:07", "1:02:03" (rounded to the second; "--:--"
/// when not a time). For batch progress, a video's or song's duration.
package enum DurationText {
    package static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--:--" }
        let total = Int(seconds.rounded())
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return total >= 3600 ? "\(total / 3600):\(twoDigits(total / 60 % 60)):\(twoDigits(total % 60))"
                             : "\(total / 60):\(twoDigits(total % 60))"
    }
}
