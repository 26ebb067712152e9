import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// The pictures a Markdown file shows from its own folder are drawn on its pages; addresses,
/// absolute paths, `..` and links out of the folder are never read.
@Suite struct MarkdownPicturesTests {
    /// A `width`×`height` PNG of one colour.
    private func png(_ red: UInt8, _ green: UInt8, _ blue: UInt8, width: Int = 120, height: Int = 80) throws -> Data {
        var pixels: [UInt8] = []
        for _ in 0..<(width * height) { pixels += [red, green, blue, 255] }
        return Data(try PNGEncoder.encode(RenderedImage(width: width, height: height, pixels: pixels)))
    }

    @Test func addressesThatAreNotPathsInTheFolderAreRefused() {
        #expect(MarkdownPictures.relativePath("docs/shot.png") == "docs/shot.png")
        #expect(MarkdownPictures.relativePath("./a%20b.png#frag") == "a b.png")
        #expect(MarkdownPictures.relativePath("shot.png?raw=true") == "shot.png")
        for address in ["http://127.0.0.1/x.png", "//host/x.png", "file:///etc/shadow", "data:image/png;base64,AAAA",
                        "/etc/passwd", "../secret.png", "docs/../../x.png", "%2E%2E/x.png", "~/x.png", "C:\\x.png", "a%00b.png", ""] {
            #expect(MarkdownPictures.relativePath(address) == nil, "\(address)")
        }
    }

    @Test func aLocalPictureIsDrawnOnThePageAndNothingElseIsRead() throws {
        let root = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try png(230, 20, 20).write(to: folder.appendingPathComponent("docs/red.png"))
        // Outside the folder: a blue picture beside it and one reached through a link.
        try png(20, 20, 230).write(to: root.appendingPathComponent("blue.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path,
                                                   withDestinationPath: root.appendingPathComponent("blue.png").path)
        let file = folder.appendingPathComponent("notes.md")
        try Data("""
        # Notes

        ![A red square](docs/red.png)

        ![outside](../blue.png)

        ![through a link](link.png)

        ![absolute](\(root.appendingPathComponent("blue.png").path))

        Text with an inline ![picture](docs/red.png) stays text.
        """.utf8).write(to: file)
        let input = try InputFile(path: DocumentPath(file.path))
        let renderer = try Renderer(file: input, contentType: try ContentType.detect(input))
        let source = try #require(renderer.source as? MarkdownSource)
        let pictures = source.markdown.lines.filter { $0.kind == .image }
        #expect(pictures.map(\.text) == ["[image: A red square — docs/red.png]"], "\(source.markdown.lines.map(\.text))")
        #expect(source.markdown.lines.contains { $0.text == "[image: outside — ../blue.png]" && $0.kind == .body })
        #expect(source.markdown.lines.contains { $0.text.hasPrefix("Text with an inline [image: picture") && $0.kind == .body })
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        var red = 0, blue = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image.pixel(x: x, y: y)
                if pixel.isClose(to: 230, 20, 20, tolerance: 30) { red += 1 }
                if pixel.isClose(to: 20, 20, 230, tolerance: 30) { blue += 1 }
            }
        }
        #expect(red > 5_000, "the red picture is drawn: \(red) px")
        #expect(blue == 0, "nothing from outside the folder is drawn: \(blue) px")
        // The thumbnail is the page (the heading's ink above the picture), not the picture alone.
        let thumbnail = try renderer.renderThumbnail(longestSide: 256)
        #expect(thumbnail.height == 256 && thumbnail.width < 256, "\(thumbnail.width)×\(thumbnail.height)")
    }

    @Test func aPictureThatIsNotOneStaysItsPlaceholder() throws {
        let folder = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("fake.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.png"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes.md")
        try Data("![fake](fake.png)\n\n![a folder](dir.png)\n\n![missing](missing.png)\n".utf8).write(to: file)
        let input = try InputFile(path: DocumentPath(file.path))
        let renderer = try Renderer(file: input, contentType: try ContentType.detect(input))
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        #expect(image.width == 595)
        let text = try #require(try renderer.text(page: 0))
        #expect(text.contains("[image: fake — fake.png]") && text.contains("[image: a folder — dir.png]") && text.contains("[image: missing — missing.png]"))
    }
}
