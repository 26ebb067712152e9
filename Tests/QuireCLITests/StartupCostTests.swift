import Foundation
@testable import QuireCLI
import QuireTestSupport
import Testing

/// What every `quire` process pays before it does anything: a file manager starts one per
/// thumbnail. The binary must not link Foundation proper (CoreFoundation's initialiser runs
/// in every process) or ICU, nor the libraries Quire loads only when a family needs them.
@Suite struct StartupCostTests {
    static func neededLibraries(_ binary: String) throws -> [String] {
        let result = ProcessRunner.run(["/usr/bin/readelf", "-d", binary], timeout: 30)
        try #require(result.status == 0, "\(result.standardError)")
        return result.standardOutputText.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test func quireLinksNeitherFoundationProperNorLazyLibraries() throws {
        let needed = try Self.neededLibraries(QuireBinary.path)
        #expect(needed.contains { $0.hasPrefix("libpoppler-glib") })   // the check reads real entries
        for prefix in ["libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libicu", "libgdk_pixbuf",
                       "libcups", "librsvg", "libspectre", "libarchive", "libqpdf", "libpangocairo", "libgs"] {
            #expect(!needed.contains { $0.hasPrefix(prefix) }, "quire links \(prefix): \(needed)")
        }
    }

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
}
