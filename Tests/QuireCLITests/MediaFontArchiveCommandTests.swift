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

    /// Render workers still running with this environment marker (waited for up to 5 s).
    static func workersLeft(marker: String) -> [String] {
        let wanted = Array(marker.utf8)
        var found: [String] = []
        for _ in 0..<50 {
            found = []
            for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid.allSatisfy(\.isNumber) {
                guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                      String(decoding: cmdline, as: UTF8.self).contains("__render-worker"),
                      let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { continue }
                if [UInt8](environ).split(separator: 0).contains(where: { Array($0) == wanted }) { found.append(pid) }
            }
            if found.isEmpty { break }
            usleep(100_000)
        }
        return found
    }

    /// Ten hours of video and of sound: `info` says 10:00:00, and `thumbnail` (one file and
    /// `--batch`) and `preview` give a poster or a card with its waveform in the normal time
    /// (seeking, not decoding it all), leaving no worker behind.
    @Test func tenHourFilesAreSoughtNotDecoded() throws {
        let marker = "QUIRE_TEST_MARK=ten-hours-\(UUID().uuidString)"
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_TEST_MARK"] = String(marker.dropFirst("QUIRE_TEST_MARK=".count))
        environment["XDG_CACHE_HOME"] = directory.file("cache")
        for name in ["media/long.webm", "media/long.flac"] {
            let path = Samples.path(name)
            let info = QuireBinary.run(["info", path], environment: environment)
            #expect(info.status == 0, "\(name): \(info.standardError)")
            #expect(info.standardOutputText.contains("10:00:00"), "\(name): \(info.standardOutputText)")
            let thumbnail = directory.file("thumbnail.png"), preview = directory.file("preview.png")
            let made = QuireBinary.run(["thumbnail", "-s", "256", path, thumbnail], environment: environment)
            #expect(made.status == 0, "\(name): \(made.standardError)")
            let shown = QuireBinary.run(["preview", path, "-o", preview], environment: environment)
            #expect(shown.status == 0, "\(name): \(shown.standardError)")
            for output in [thumbnail, preview] {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name): \(output)")
                try FileManager.default.removeItem(atPath: output)
            }
        }
        // The batch renders in long-lived workers (sandboxed): both files thumbnailed, and the
        // workers gone with it.
        let batch = QuireBinary.run(["thumbnail", "--batch", "--json", Samples.path("media/long.webm"), Samples.path("media/long.flac")],
                                    timeout: 60, environment: environment)
        #expect(batch.status == 0, "\(batch.standardError)")
        let thumbnails = (FileManager.default.enumerator(atPath: directory.file("cache/thumbnails"))?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".png") }
        #expect(thumbnails.count == 2, "\(thumbnails)")
        #expect(Self.workersLeft(marker: marker).isEmpty, "no worker is left running")
    }

    /// A Matroska file holding only sound, thumbnailed: the video pipeline fails and is released
    /// once (it was released twice: GLib's warnings on standard error), then the audio card.
    @Test func aThumbnailOfSoundInAVideoContainerIsTheCardWithNoWarnings() throws {
        let output = directory.file("audio-only.png")
        let result = QuireBinary.run(["thumbnail", "-s", "128", Samples.path("media/audio-only.mkv"), output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines.isEmpty, "\(result.errorLines)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
