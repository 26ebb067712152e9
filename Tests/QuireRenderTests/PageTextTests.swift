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
