import Foundation
import Testing
@testable import QuireRender
import QuireTypes

@Suite struct TextRenderingTests {
    @Test func sixtyTwoLinesFitOnAnA4Page() {
        #expect(TextSource.linesPerPage == 62)
    }

    /// notes.txt: 120 lines → 2 pages; long.txt: 200 lines → 4 pages.
    @Test(arguments: [("notes.txt", 2), ("long.txt", 4)])
    func pageCountFollowsLineCount(name: String, pages: Int) throws {
        let renderer = try SampleFiles.renderer(name)
        #expect(renderer.pageCount == pages)
        #expect(renderer.pageSize(at: 0) == PageSize(width: 595.28, height: 841.89))
    }

    @Test(arguments: [(1, 1), (62, 1), (63, 2), (124, 2), (125, 3)])
    func pageBreaksAtTheLineLimit(lines: Int, pages: Int) throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("lines.txt")
        try ((1...lines).map { "line \($0)" }.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        let file = try InputFile(path: DocumentPath(url.path))
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        #expect(renderer.pageCount == pages)
    }

    @Test func longLinesWrap() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("wide.txt")
        // 70 lines of 200 characters wrap to 3 lines each at 10 pt monospace on A4: > 62 lines.
        try (String(repeating: String(repeating: "x", count: 200) + "\n", count: 70)).write(to: url, atomically: true, encoding: .utf8)
        let file = try InputFile(path: DocumentPath(url.path))
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        #expect(renderer.pageCount >= 3)
    }

    @Test func textIsInkOnWhitePaper() throws {
        let image = try SampleFiles.renderer("notes.txt").render(page: 0, size: .width(595))
        #expect(image.pixel(x: 5, y: 5).isClose(to: 255, 255, 255, tolerance: 0))
        // Some dark ink in the first line's band (margin 48 pt, 12 pt pitch).
        var darkest = 255
        for x in 48..<200 { for y in 50..<60 { darkest = min(darkest, Int(image.pixel(x: x, y: y).green)) } }
        #expect(darkest < 100)
        // Nothing below the last line: the bottom margin is blank.
        for x in stride(from: 0, to: 595, by: 7) { #expect(image.pixel(x: x, y: 835).green == 255) }
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        let renderer = try SampleFiles.renderer("invalid-utf8.txt")
        #expect(renderer.pageCount == 1)
        _ = try renderer.render(size: .longestSide(64))
        #expect(TextSource.clean([0x61, 0xFF, 0x62, 0x0D, 0x0A, 0x01]) == "a\u{FFFD}b\n\u{FFFD}")
    }
}

@Suite struct LargeTextTests {
    /// 3 MiB of log lines: cut at the 2 MiB limit on a line boundary, laid out in well under
    /// the time a thumbnailer is given (one layout per file used to take minutes).
    @Test func largeLogIsCutAndLaidOutQuickly() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("big.log")
        let line = "2026-01-01 12:00:00 INFO worker processed an item in 12 ms\n"
        try String(repeating: line, count: (3 << 20) / line.utf8.count).write(to: url, atomically: true, encoding: .utf8)
        let file = try InputFile(path: DocumentPath(url.path))
        let start = Date()
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        _ = try renderer.render(page: 0, size: .longestSide(128))
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(renderer.isTruncated)
        let linesKept = (2 << 20) / line.utf8.count
        #expect(renderer.pageCount == (linesKept + TextSource.linesPerPage - 1) / TextSource.linesPerPage)
    }
}
