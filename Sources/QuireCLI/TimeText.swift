#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials

/// Dates as the CLI prints them, through the C library's time functions (the local time zone
/// from TZ and /etc/localtime), in fixed POSIX formats that do not depend on the locale.
enum TimeText {
    /// "2026-11-22 14:03:09" in local time, with " +0100" when `withZone`.
    static func local(_ date: Date, withZone: Bool) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return iso8601(date) }
        return format(parts, withZone ? "%Y-%m-%d %H:%M:%S %z" : "%Y-%m-%d %H:%M:%S")
    }

    /// RFC 3339 / ISO 8601 in UTC, whole seconds: "2026-11-22T13:03:09Z".
    static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "1970-01-01T00:00:00Z" }
        return format(parts, "%Y-%m-%dT%H:%M:%SZ")
    }

    private static func format(_ parts: tm, _ pattern: String) -> String {
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
