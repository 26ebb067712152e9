import QuirePrint
import Testing

@Suite("Page ranges (document pages)")
struct PageRangesTests {
    @Test(arguments: ["0", "5-3", "x", "", "1,,2", "-", "2-x", "1.5", "-0", "٣"])
    func malformedRangesAreRejected(_ text: String) {
        #expect(throws: PrintError.self) { try PageRanges(text) }
        do { _ = try PageRanges(text) } catch { #expect(error.kind == .invalidPageRange) }
    }

    @Test func selectsPagesInOrderWithoutRepeats() throws {
        #expect(try PageRanges("1-3,5").pages(pageCount: 6) == [1, 2, 3, 5])
        #expect(try PageRanges("4-,2").pages(pageCount: 6) == [4, 5, 6, 2])
        #expect(try PageRanges("-2,2-3").pages(pageCount: 6) == [1, 2, 3])
        #expect(try PageRanges(" 2 , 6 ").pages(pageCount: 6) == [2, 6])
    }

    @Test func rangesBeyondTheLastPageAreRejected() throws {
        for text in ["7", "5-7", "7-"] {
            let ranges = try PageRanges(text)
            #expect(throws: PrintError.self) { try ranges.pages(pageCount: 6) }
            do { _ = try ranges.pages(pageCount: 6) } catch {
                #expect(error.kind == .invalidPageRange)
                #expect(error.message.contains("the document has 6 pages"))
            }
        }
    }

    @Test func compactsForIPP() throws {
        #expect(PageRanges.compact([1, 2, 3, 5, 7, 8]) == "1-3,5,7-8")
        #expect(try PageRanges("2-").ippValue(pageCount: 4) == "2-4")
    }
}
