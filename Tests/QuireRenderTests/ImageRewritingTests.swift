import Foundation
import QuireTestSupport
import Testing
@testable import QuireRender
import QuireTypes

/// Markup's Rotate and Crop on images (issue 36), as the worker writes them: a JPEG turned by
/// its orientation tag alone (the picture's bytes unchanged, exiftool reads the tag), a crop cut
/// and turned and written again in the image's own format; each result drawn by the image
/// engine and checked by its pixels.
@Suite struct ImageRewritingTests {
    let directory = TemporaryDirectory("quire-image-rewrite")

    func rewrite(_ sample: String, turns: Int, crop: TextBox? = nil, name: String? = nil) throws -> (path: String, bytes: [UInt8]) {
        try rewrite(path: Samples.path(sample), mimeType: sample.hasSuffix(".png") ? "image/png" : "image/jpeg", turns: turns, crop: crop,
                    name: name ?? "\(turns)-\(sample)")
    }

    func rewrite(path source: String, mimeType: String, turns: Int, crop: TextBox?, name: String) throws -> (path: String, bytes: [UInt8]) {
        let file = try InputFile(path: DocumentPath(source))
        let bytes = try ImageRewriting.rewritten(file, mimeType: mimeType, quarterTurns: turns, crop: crop, limits: .standard)
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    func render(_ path: String) throws -> RenderedImage {
        let file = try InputFile(path: DocumentPath(path))
        return try Renderer(file: file, contentType: try ContentType.detect(file), limits: .standard).render()
    }

    /// The bytes from the first start-of-scan marker on: the compressed picture.
    static func picture(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let start = (2..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA } ?? 0
        return bytes[start...]
    }

    /// exiftool's reading of a tag (`-n`: numbers as stored), nil when it has none.
    func exif(_ path: String, _ tag: String) -> String? {
        let result = ProcessRunner.run(["/usr/bin/exiftool", "-s3", "-n", "-\(tag)", path], timeout: 60)
        let value = String(decoding: result.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    /// photo.jpg: 80×60, left red, right blue, no EXIF block; photo-rotated.jpg: the same stored
    /// with orientation 6 (shown 60×80, red on top); photo-exif.jpg: an EXIF block whose
    /// orientation is 1.
    @Test(arguments: [("photo.jpg", 1, 6), ("photo.jpg", -1, 8), ("photo.jpg", 2, 3), ("photo-rotated.jpg", 1, 3),
                      ("photo-rotated.jpg", -1, 1), ("photo-exif.jpg", 1, 6)])
    func aJPEGTurnsByItsOrientationTagAloneAndKeepsItsPicture(sample: String, turns: Int, orientation: Int) throws {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: Samples.path(sample))))
        let (path, bytes) = try rewrite(sample, turns: turns)
        #expect(Self.picture(bytes) == Self.picture(original), "the compressed picture is byte for byte the original's")
        #expect(bytes.count - original.count < 64, "only a tag (or a small EXIF block) is added: \(bytes.count - original.count) bytes")
        #expect(exif(path, "Orientation") == "\(orientation)", "exiftool reads the new orientation")
        #expect(JPEGOrientation.orientation(of: bytes) == orientation)
        if sample == "photo-exif.jpg" { #expect(exif(path, "Make") == "FUJIFILM", "the rest of the EXIF block stays") }
        // Drawn as turned: where the red half of the upright photo went.
        let image = try render(path)
        let before = try render(Samples.path(sample))
        let shownTurns = ((turns % 4) + 4) % 4
        #expect(shownTurns % 2 == 1 ? (image.width == before.height && image.height == before.width)
                                    : (image.width == before.width && image.height == before.height), "\(image.width)×\(image.height)")
        // A point of the picture before, and where a clockwise quarter turn puts it.
        var (x, y, w, h) = (before.width / 5, before.height / 5, before.width, before.height)
        let colour = before.pixel(x: x, y: y)
        for _ in 0..<shownTurns { (x, y, w, h) = (h - 1 - y, x, h, w) }
        #expect(image.pixel(x: x, y: y).isClose(to: colour.red, colour.green, colour.blue, tolerance: 30), "\(image.pixel(x: x, y: y)) at \(x),\(y) is \(colour)")
    }

    @Test func fourTurnsGiveBackTheSameFile() throws {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: Samples.path("photo.jpg"))))
        #expect(try rewrite("photo.jpg", turns: 4).bytes == original)
        for orientation in 1...8 {
            #expect(JPEGOrientation.turned(JPEGOrientation.turned(orientation, by: 1), by: -1) == orientation)
            #expect(JPEGOrientation.turned(orientation, by: 4) == orientation)
            // A mirrored picture stays mirrored, an upright one upright.
            #expect([2, 4, 5, 7].contains(JPEGOrientation.turned(orientation, by: 1)) == [2, 4, 5, 7].contains(orientation))
        }
    }

    /// An EXIF block without an orientation (exiftool removed it) gets one, IFD0 written again.
    @Test func anExifBlockWithoutAnOrientationGetsOneAndKeepsItsOtherTags() throws {
        let stripped = directory.file("no-orientation.jpg")
        let result = ProcessRunner.run(["/usr/bin/exiftool", "-q", "-Orientation=", "-o", stripped, Samples.path("photo-exif.jpg")], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(exif(stripped, "Orientation") == nil)
        let (path, bytes) = try rewrite(path: stripped, mimeType: "image/jpeg", turns: 1, crop: nil, name: "given-orientation.jpg")
        #expect(exif(path, "Orientation") == "6")
        #expect(exif(path, "Make") == "FUJIFILM" && exif(path, "Model") == exif(stripped, "Model"))
        #expect(Self.picture(bytes) == Self.picture(Array(try Data(contentsOf: URL(fileURLWithPath: stripped)))))
        // exiftool's validation finds nothing it did not find before (the sample lacks tags a camera writes).
        func warnings(_ file: String) -> Set<String> {
            let result = ProcessRunner.run(["/usr/bin/exiftool", "-validate", "-warning", "-a", "-s3", file], timeout: 60)
            return Set(String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.contains("Warnings") })
        }
        let before = warnings(stripped), after = warnings(path)
        #expect(!before.isEmpty && after.subtracting(before).isEmpty, "new warnings: \(after.subtracting(before))")
        #expect(try render(path).width == 60)
    }

    /// quadrants.png: 64×48, red, green / blue, white quadrants.
    @Test func aPNGIsCutToTheBoxThenTurnedWithoutLoss() throws {
        let (path, bytes) = try rewrite("quadrants.png", turns: 1, crop: TextBox(x: 0, y: 0, width: 40, height: 30))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "still a PNG")
        let image = try render(path)
        #expect(image.width == 30 && image.height == 40)
        // Turned right: red top right, blue top left, green bottom right, white bottom left — exact colours.
        #expect(image.pixel(x: 20, y: 10).isClose(to: 255, 0, 0, tolerance: 0))
        #expect(image.pixel(x: 2, y: 10).isClose(to: 0, 0, 255, tolerance: 0))
        #expect(image.pixel(x: 20, y: 36).isClose(to: 0, 255, 0, tolerance: 0))
        #expect(image.pixel(x: 2, y: 36).isClose(to: 255, 255, 255, tolerance: 0))
    }

    /// A JPEG cropped is encoded again: upright pixels, orientation 1, its other EXIF tags kept.
    @Test func aCroppedJPEGIsUprightWithItsExifKept() throws {
        let (path, _) = try rewrite("photo-rotated.jpg", turns: 0, crop: TextBox(x: 0, y: 0, width: 60, height: 40), name: "top.jpg")
        let top = try render(path)
        #expect(top.width == 60 && top.height == 40)
        #expect(top.pixel(x: 30, y: 20).isClose(to: 255, 0, 0, tolerance: 40), "the red half (shown on top) is kept: \(top.pixel(x: 30, y: 20))")
        #expect(exif(path, "Orientation") == "1", "the picture is stored upright now")
        let (right, _) = try rewrite("photo-exif.jpg", turns: 0, crop: TextBox(x: 40.4, y: -5, width: 50, height: 70), name: "right.jpg")
        let blue = try render(right)
        #expect(blue.width == 40 && blue.height == 60, "kept inside the picture: \(blue.width)×\(blue.height)")
        #expect(blue.pixel(x: 20, y: 30).isClose(to: 0, 0, 255, tolerance: 40))
        #expect(exif(right, "Make") == "FUJIFILM")
    }

    @Test func otherFormatsAndEmptyCropsAreRefusedInOneLine() throws {
        #expect(ImageRewriting.refusal(mimeType: "image/gif") != nil)
        let gif = try InputFile(path: DocumentPath(Samples.path("format.gif")))
        #expect(throws: DocumentError.self) { try ImageRewriting.rewritten(gif, mimeType: "image/gif", quarterTurns: 1, crop: nil, limits: .standard) }
        let png = try InputFile(path: DocumentPath(Samples.path("quadrants.png")))
        do {
            _ = try ImageRewriting.rewritten(png, mimeType: "image/png", quarterTurns: 0, crop: TextBox(x: 100, y: 100, width: 10, height: 10), limits: .standard)
            Issue.record("a crop outside the picture is refused")
        } catch {
            #expect(error.reason == "the crop leaves nothing of the image")
        }
        let garbage = try InputFile(path: DocumentPath(Samples.path("garbage.jpg")))
        #expect(throws: DocumentError.self) { try ImageRewriting.rewritten(garbage, mimeType: "image/jpeg", quarterTurns: 1, crop: nil, limits: .standard) }
    }
}
