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
        #expect(needed.contains { $0.hasPrefix("libgio-2.0") })   // the check reads real entries
        for prefix in ["libpoppler", "libcairo", "libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libicu", "libgdk_pixbuf",
                       "libcups", "librsvg", "libspectre", "libarchive", "libqpdf", "libpangocairo", "libgs", "libgtk-4", "libgdk-4"] {
            #expect(!needed.contains { $0.hasPrefix(prefix) }, "quire links \(prefix): \(needed)")
        }
    }
}
