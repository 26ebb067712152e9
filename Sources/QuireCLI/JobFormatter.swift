#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import Quire

/// Text and JSON for jobs.
enum JobFormatter {
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func date(_ date: Date?) -> String {
        guard let date else { return "-" }
        return TimeText.local(date, withZone: false)
    }

    /// "quire-office-3  root  2k  held  2026-11-22 02:41:23  report.pdf"
    static func line(_ job: JobInfo) -> String {
        [job.requestID, job.user ?? "-", job.sizeKilobytes.map { "\($0)k" } ?? "-",
         job.state.rawValue, date(job.created), job.title].joined(separator: "  ")
    }

    static func card(_ job: JobInfo) -> String {
        var lines = [
            "Job:        \(job.requestID)",
            "Title:      \(job.title)",
            "State:      \(job.state.rawValue)" + (job.stateMessage.map { " — \($0)" } ?? ""),
        ]
        if !job.stateReasons.isEmpty { lines.append("Reasons:    \(job.stateReasons.joined(separator: ", "))") }
        if let user = job.user { lines.append("User:       \(user)") }
        if let size = job.sizeKilobytes { lines.append("Size:       \(size) kB") }
        if let pages = job.pagesCompleted { lines.append("Pages:      \(pages)") }
        if let priority = job.priority { lines.append("Priority:   \(priority)") }
        if let hold = job.holdUntil, hold != "no-hold" { lines.append("Hold until: \(hold)") }
        lines.append("Created:    \(date(job.created))")
        if job.processingStarted != nil { lines.append("Processing: \(date(job.processingStarted))") }
        if job.completed != nil { lines.append("Completed:  \(date(job.completed))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
