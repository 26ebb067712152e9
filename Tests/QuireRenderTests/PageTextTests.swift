import Foundation
import QuireTestSupport
import QuireRender
import QuireTypes
import Testing

/// poppler's text on a page, through the renderer: search matches with boxes from the page's
/// top-left corner, literal and case- and accent-insensitive; a box per character.
@Suite("Page text and search")
struct PageTextTests {
    func renderer(_ name: String) throws -> Renderer {
        let file = try InputFile(path: DocumentPath(Samples.path(name)))
        return try Renderer(file: file, contentType: try ContentType.detect(file))
    }

    @Test func matchesHaveBoxesOnTheWord() throws {
        let renderer = try renderer("find-cases.pdf")
        let found = try #require(try renderer.find("fox", page: 2))
        #expect(found.hasText)
        #expect(found.matches.count == 2)
        let first = try #require(found.matches.first?.first)
        #expect(abs(first.x - 72) < 2 && first.y > 60 && first.y < 100, "second line, from the top: \(first)")
        let blank = try #require(try renderer.find("fox", page: 1))
        #expect(!blank.hasText && blank.matches.isEmpty)
        #expect(try renderer.find("CAFÉ", page: 0)?.matches.count == 1)
        #expect(try renderer.find("a.b*c", page: 0)?.matches.count == 1)
        #expect(try renderer.find("a.c", page: 0)?.matches.isEmpty == true)
    }

    @Test func theLayoutHasABoxPerCharacter() throws {
        let renderer = try renderer("find-cases.pdf")
        let layout = try #require(try renderer.textLayout(page: 0))
        #expect(layout.text(0..<17) == "Café résumé naïve")
        #expect(layout.boxes.count == layout.characters.count)
        #expect(abs(layout.boxes[0].x - 72) < 2 && layout.boxes[1].x > layout.boxes[0].x)
        #expect(renderer.allowsCopyingText)
        // Lines of 11 pt Helvetica 14 pt apart: the first from 78 pt down, the second from 92.
        #expect(abs(layout.boxes[0].y - 78.1) < 1 && abs(layout.boxes[18].y - 92.1) < 1 && layout.characters[18] == "L")
    }
}

/// On a page with /Rotate, matches and glyph boxes are where the rendered page shows the text.
@Suite("Page text on a rotated page")
struct RotatedPageTextTests {
    @Test func boxesFollowTheRotation() throws {
        let file = try InputFile(path: DocumentPath(Samples.path("find-rotated.pdf")))
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        let size = renderer.pageSize(at: 0)
        #expect(size.width > size.height, "A4 turned a quarter: landscape")
        let box = try #require(try renderer.find("Rotated", page: 0)?.matches.first?.first)
        let layout = try #require(try renderer.textLayout(page: 0))
        #expect(layout.text(0..<7) == "Rotated")
        #expect(abs(layout.boxes[0].x - box.x) < 1 && abs(layout.boxes[0].y - box.y) < 1, "find and layout agree: \(box) \(layout.boxes[0])")
        // The text's ink is inside the box (scaled to the rendered pixels), not beside it.
        let image = try renderer.render(page: 0, size: .natural)
        func dark(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Int {
            var count = 0
            let top = max(0, Int(y0)), bottom = min(image.height, Int(y1.rounded(.up)))
            let left = max(0, Int(x0)), right = min(image.width, Int(x1.rounded(.up)))
            guard top < bottom, left < right else { return 0 }
            for y in top..<bottom {
                for x in left..<right {
                    let offset = (y * image.width + x) * 4
                    if image.pixels[offset] < 100 && image.pixels[offset + 1] < 100 && image.pixels[offset + 2] < 100 { count += 1 }
                }
            }
            return count
        }
        let sx = Double(image.width) / size.width, sy = Double(image.height) / size.height
        #expect(dark(box.x * sx, box.y * sy, box.maxX * sx, box.maxY * sy) > 20, "ink inside the match's box \(box)")
        // The same box unturned (where it would be without the rotation) holds no ink.
        #expect(dark(box.y * sx, box.x * sy, box.maxY * sx, box.maxX * sy) == 0)
    }
}
