import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// JSON pretty-printed with its outline: lines, depths, folds, paths; errors with their line and
/// column; the depth and size bounds; JSON Lines.
@Suite struct JSONOutlineTests {
    @Test func aDocumentIsPrettyPrintedWithItsOutline() throws {
        let outline = try JSONOutline.parse(Array(#"{"a": [1, {"b c": true}], "e": {}, "x": "y"}"#.utf8))
        #expect(outline.text == ["{", "  \"a\": [", "    1,", "    {", "      \"b c\": true", "    }", "  ],", "  \"e\": {},", "  \"x\": \"y\"", "}"])
        #expect(outline.lines.map(\.depth) == [0, 1, 2, 2, 3, 2, 1, 1, 1, 0])
        #expect(outline.lines[0].end == 9 && outline.lines[1].end == 6 && outline.lines[3].end == 5)
        #expect(outline.lines[1].count == 2 && !outline.lines[1].isObject && outline.lines[0].count == 3)
        #expect(outline.topLevel == "object" && outline.topLevelCount == 3 && outline.depth == 3)
        #expect(outline.path(of: 0) == ".")
        #expect(outline.path(of: 2) == ".a[0]")
        #expect(outline.path(of: 4) == #".a[1]["b c"]"#)
        #expect(outline.path(of: 5) == ".a[1]", "a closing line is its node")
        #expect(outline.path(of: 8) == ".x")
    }

    @Test func pathLabelsQuoteWhatIsNotAnIdentifier() {
        #expect(JSONOutline.label(forKey: "name") == ".name")
        #expect(JSONOutline.label(forKey: "_x1") == "._x1")
        #expect(JSONOutline.label(forKey: "1st") == #"["1st"]"#)
        #expect(JSONOutline.label(forKey: "a\"b") == #"["a\"b"]"#)
        #expect(JSONOutline.label(forKey: "") == #"[""]"#)
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,\n  \"b\": [1, 2]\n  \"c\": 3\n}\n", 4, 3, "expected ',' or '}'"),
        ("[1, 2,]", 1, 7, "expected a value"),
        ("{\"a\" 1}", 1, 6, "expected ':' after the key"),
        ("[tru]", 1, 2, "not a JSON value: tru"),
        ("[\"x\ty\"]", 1, 4, "a control character in a string"),
        ("[1] 2", 1, 5, "unexpected text after the JSON value"),
        ("{\"é\": [", 1, 8, "expected a value (the file ends here)"),
    ])
    func invalidJSONSaysWhere(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try JSONOutline.parse(Array(text.utf8))
        } throws: { error in
            guard let error = error as? JSONOutline.SyntaxError else { return false }
            return error.line == line && error.column == column && error.message.hasPrefix(message)
        }
    }

    @Test func nestingDeeperThanTheLimitIsAnErrorNotACrash() throws {
        let deep = Array(String(repeating: "[", count: 100_000).utf8) + Array(String(repeating: "]", count: 100_000).utf8)
        #expect {
            _ = try JSONOutline.parse(deep)
        } throws: { error in
            (error as? JSONOutline.SyntaxError)?.message == "nested deeper than \(JSONOutline.maximumDepth) levels"
        }
        let file = try SampleFiles.open("data/deep.json")
        let (summary, outline) = try JSONSummary.read(file)
        #expect(outline == nil && summary.error?.column == JSONOutline.maximumDepth + 2)
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        #expect(renderer.outline == nil && renderer.viewText?.count == 1, "shown as its text")
        #expect(renderer.details.first?.label == "JSON error")
    }

    /// A document cut at the byte limit: what was read, its open nodes closed, said truncated.
    @Test func aCutDocumentClosesWhatIsOpen() throws {
        let outline = try JSONOutline.parse(Array(#"{"a": [1, 2, {"b": "lo"#.utf8), truncated: true)
        #expect(outline.isTruncated)
        #expect(outline.text.suffix(4) == ["      … (the rest is not shown)", "    }", "  ]", "}"], "\(outline.text)")
        #expect(outline.lines[0].end == outline.text.count - 1)
    }

    @Test func aLargeFileIsReadOnlyToTheLimit() throws {
        let folder = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.json").path
        let item = Array(#"{"id": 12345, "name": "a fairly ordinary record"},"#.utf8)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(40 << 20)
        while bytes.count < 40 << 20 { bytes += item }
        bytes += Array(#"{"id": 0}]"#.utf8)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let (summary, outline) = try JSONSummary.read(try InputFile(path: DocumentPath(path)))
        #expect(summary.isTruncated && summary.error == nil && summary.topLevel == "array")
        #expect((outline?.text.count ?? 0) <= JSONOutline.maximumLines + 64)
        #expect(summary.shape.hasSuffix("or more items"))
        // A thumbnail reads 64 KiB: page 1 whatever the file's size.
        let file = try InputFile(path: DocumentPath(path))
        let thumbnail = try Renderer(file: file, contentType: try ContentType.detect(file), preferEmbeddedPreview: true)
        #expect(thumbnail.outline?.isTruncated == true && (thumbnail.viewText?.count ?? .max) < 10_000)
        #expect(try thumbnail.render(page: 0, size: .longestSide(256)).height == 256)
    }

    @Test func jsonLinesAreRecordsAtTheTop() throws {
        let file = try SampleFiles.open("data/records.jsonl")
        #expect(JSONSummary.isJSONLines(name: file.path.lastComponentBytes))
        let (summary, outline) = try JSONSummary.read(file, lines: true)
        #expect(summary.topLevel == "JSON Lines" && summary.count == 40)
        let lines = try #require(outline)
        #expect(lines.text.prefix(5) == ["{", "  \"n\": 0,", "  \"even\": true,", "  \"name\": \"record 0\"", "}"])
        #expect(lines.path(of: 6) == "[1].n")
        #expect(throws: JSONOutline.SyntaxError.self) { _ = try JSONOutline.parse(Array("{\"a\": 1} {\"b\": 2}\n".utf8), lines: true) }
    }

    @Test func theEngineShowsPrettyPagesAndTheCard() throws {
        let renderer = try SampleFiles.renderer("data/sample.json")
        #expect(renderer.contentType.family == .json)
        #expect(renderer.details.map(\.label) == ["Top level", "Depth"])
        #expect(renderer.details.first?.value == "object, 6 keys")
        let text = try #require(try renderer.text(page: 0))
        #expect(text.hasPrefix("{\n  \"name\": \"Quire\",\n  \"version\": 38,\n  \"items\": [\n    {\n      \"id\": 0,"))
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        var ink = 0
        for y in 48..<120 { for x in 48..<200 where image.pixel(x: x, y: y).red < 128 { ink += 1 } }
        #expect(ink > 50, "the first lines are drawn")
        let invalid = try SampleFiles.renderer("data/invalid.json")
        #expect(invalid.details == [CardRow("JSON error", "line 4, column 3: expected ',' or '}' (shown as text)")])
        #expect(try invalid.text(page: 0)?.hasPrefix("{\n  \"a\": 1,\n  \"b\": [1, 2]\n  \"c\": 3") == true)
    }
}
