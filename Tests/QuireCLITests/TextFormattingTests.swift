import Foundation
@testable import QuireCLI
import Testing

/// How the CLI formats dates, columns and the progress bar's clock (C library formatting in
/// place of Foundation's formatters).
@Suite struct TextFormattingTests {
    @Test func datesPrintInFixedPOSIXForms() {
        let date = Date(timeIntervalSince1970: 1_795_000_000)   // 2026-11-18T11:06:40Z
        #expect(TimeText.iso8601(date) == "2026-11-18T11:06:40Z")
        let local = TimeText.local(date, withZone: true)
        #expect(local.count == "2026-11-18 11:06:40 +0000".count && local.hasPrefix("2026-11-1"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss xx"
        #expect(local == formatter.string(from: date))
        #expect(TimeText.local(date, withZone: false) == String(local.prefix(19)))
    }

    @Test func paddedColumnsCutOrFill() {
        #expect(Terminal.padded("pdf", to: 6) == "pdf   ")
        #expect(Terminal.padded("preview", to: 4) == "prev")
    }

    @Test func progressClockShowsMinutesOrHours() {
        #expect(BatchProgressBar.clock(0) == "0:00")
        #expect(BatchProgressBar.clock(65.4) == "1:05")
        #expect(BatchProgressBar.clock(3725) == "1:02:05")
        #expect(BatchProgressBar.clock(.infinity) == "--:--")
        #expect(BatchProgressBar.clock(-1) == "--:--")
    }
}
