import Foundation
import Testing
@testable import QuireRender
import QuireTestSupport
import QuireTypes

/// A HEIF file's size from its boxes (issue 39): what libheif's own `heif-info` says of the
/// samples heif-enc wrote, a quarter turn (`irot`) swapping the sides, other files not taken for
/// HEIF, and a decoder bomb refused from its boxes before any decoding.
@Suite struct HEIFImageSizeTests {
    static func head(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: SampleFiles.path(name))).prefix(HEIFImageSize.headLimit))
    }

    /// `heif-info`'s line for the primary image ("image: 80x60 (id=2), primary").
    static func heifInfoSize(_ name: String) throws -> (Int, Int) {
        let result = ProcessRunner.run(["/usr/bin/heif-info", SampleFiles.path(name)], timeout: 30)
        let line = try #require(result.standardOutputText.split(separator: "\n").first { $0.contains("primary") && $0.hasPrefix("image: ") },
                                "\(result.standardOutputText) \(result.standardError)")
        let size = line.dropFirst("image: ".count).prefix { $0 != " " }.split(separator: "x").compactMap { Int($0) }
        try #require(size.count == 2)
        return (size[0], size[1])
    }

    @Test(arguments: ["photo.heic", "photo.avif"])
    func theSizeIsLibheifsOwn(name: String) throws {
        let size = try #require(HEIFImageSize(head: try Self.head(name)))
        let (width, height) = try Self.heifInfoSize(name)
        #expect(size.width == width && size.height == height, "\(name): \(size.width)×\(size.height) vs \(width)×\(height)")
        #expect(width == 80 && height == 60)
    }

    @Test func otherFilesAreNotTakenForHEIF() throws {
        for name in ["photo.jpg", "format.png", "document.pdf"] {
            #expect(HEIFImageSize(head: try Self.head(name)) == nil, "\(name)")
        }
        // Cut inside its boxes: no size, rather than a wrong one.
        let heic = try Self.head("photo.heic")
        for length in [0, 12, 40, 200] {
            #expect(HEIFImageSize(head: Array(heic.prefix(length))) == nil, "the first \(length) bytes")
        }
    }

    /// The sample with its `ispe` set to `width`×`height` (same box sizes: only the numbers).
    static func heic(width: UInt32, height: UInt32) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: SampleFiles.path("photo.heic"))))
        let ispe = Array("ispe".utf8)
        var patched = 0
        for at in 0..<(bytes.count - 16) where Array(bytes[at..<(at + 4)]) == ispe {
            // type, then version and flags (4), then width and height.
            for (offset, value) in [(8, width), (12, height)] {
                for byte in 0..<4 { bytes[at + offset + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(byte))) }
            }
            patched += 1
        }
        try #require(patched >= 1)
        return bytes
    }

    @Test func aQuarterTurnSwapsTheSides() throws {
        // A HEIF head written here box by box: the primary item 1 has a 4032 × 3024 extent
        // and, in the first file, a quarter turn (as a phone writes a portrait photo).
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + body.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 255), UInt8(size >> 8 & 255), UInt8(size & 255)] + Array(type.utf8) + body
        }
        let ispe = box("ispe", [0, 0, 0, 0, 0, 0, 0x0F, 0xC0, 0, 0, 0x0B, 0xD0])   // 4032 × 3024
        let irot = box("irot", [1])
        let ipco = box("ipco", ispe + irot)
        // ipma version 0, flags 0: one entry, item 1, two associations (indexes 1 and 2).
        let ipma = box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 2, 0x81, 0x02])
        let iprp = box("iprp", ipco + ipma)
        let pitm = box("pitm", [0, 0, 0, 0, 0, 1])
        let meta = box("meta", [0, 0, 0, 0] + pitm + iprp)
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let turned = try #require(HEIFImageSize(head: ftyp + meta))
        #expect(turned.width == 3024 && turned.height == 4032)
        let upright = try #require(HEIFImageSize(head: ftyp + box("meta", [0, 0, 0, 0] + pitm + box("iprp", box("ipco", ispe) + box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81])))))
        #expect(upright.width == 4032 && upright.height == 3024)
        // A clean aperture (`clap`) crops what libheif shows: no size from the boxes, the
        // loader is asked.
        let clap = box("clap", [UInt8](repeating: 0, count: 32))
        let cropped = ftyp + box("meta", [0, 0, 0, 0] + pitm + box("iprp", box("ipco", ispe + clap) + box("ipma", [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 2, 0x81, 0x82])))
        #expect(HEIFImageSize(head: cropped) == nil)
    }

    /// Issue 39's decoder bomb: a 65,535 × 65,535 HEIC is refused from its boxes, with the pixel
    /// limit's words, before the loader is asked (libheif would refuse to decode it, and the
    /// loader's failure would read "damaged", not the limit).
    @Test func aDecoderBombIsRefusedFromItsBoxes() throws {
        try #require(ImageProbe.canLoad(mimeType: "image/heif"), "heif-gdk-pixbuf is installed by make deps")
        let directory = TemporaryDirectory()
        let path = directory.file("bomb.heic")
        try Data(try Self.heic(width: 65_535, height: 65_535)).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: DocumentPath(path))
        do {
            _ = try Renderer(file: file, contentType: try ContentType.detect(file)).render(size: .longestSide(128))
            Issue.record("a 65,535 × 65,535 HEIC was rendered")
        } catch let error as DocumentError {
            #expect(error.kind == .limitExceeded, "\(error)")
            #expect(error.reason.contains("65535×65535") && error.reason.contains("refused before decoding"), "\(error.reason)")
        }
    }
}
