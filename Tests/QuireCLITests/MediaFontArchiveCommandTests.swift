import Foundation
import QuireTestSupport
import Testing

/// Damaged fonts, archives and media through the commands a user types: one line naming the
/// file and the reason, exit 65 (EX_DATAERR), nothing written.
@Suite("quire on damaged fonts, archives and media")
struct MediaFontArchiveCommandTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [("fonts/truncated.ttf", "not a readable font"),
                      ("archives/not-a-zip.zip", "not a readable archive ("),
                      ("media/noise.webm", "not a readable video or audio file")])
    func oneLineAndDataError(sample: String, reason: String) throws {
        let path: String
        if sample == "media/noise.webm" {
            path = directory.file("noise.webm")
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: path))
        } else {
            path = Samples.path(sample)
        }
        let output = directory.file("out.png")
        for arguments in [["info", path], ["preview", path, "-o", output], ["thumbnail", "-s", "128", path, output]] {
            let result = QuireBinary.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.standardError)")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.errorLines)")
            #expect(result.errorLines.first?.contains(reason) == true, "\(arguments): \(result.errorLines)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments) wrote \(output)")
        }
    }
}
