/// Page ranges in **document** pages, as `lp -P` takes them: "1-3,5,8-" (1-based, inclusive;
/// "8-" means page 8 to the end, "-3" pages 1 to 3).
public struct PageRanges: Sendable, Hashable, CustomStringConvertible {
    /// Inclusive ranges; an open end is `Int.max` until resolved against a page count.
    public let ranges: [ClosedRange<Int>]

    /// Parses the text; throws ``PrintError`` (`invalidPageRange`) for "0", "5-3", "x", "".
    public init(_ text: String) throws(PrintError) {
        func bad(_ why: String) -> PrintError {
            PrintError(.invalidPageRange, "invalid page range \"\(text)\": \(why)")
        }
        var result: [ClosedRange<Int>] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        for rawPart in parts {
            let part = rawPart.trimmingWhitespace()
            if part.isEmpty { throw bad("empty range") }
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            func number(_ s: String) throws(PrintError) -> Int {
                guard !s.isEmpty, s.allSatisfy(\.isASCII), s.allSatisfy(\.isNumber), let value = Int(s) else {
                    throw bad("\"\(s)\" is not a page number")
                }
                if value < 1 { throw bad("pages are numbered from 1") }
                return value
            }
            if bounds.count == 1 {
                let page = try number(bounds[0])
                result.append(page...page)
            } else {
                if bounds[0].isEmpty && bounds[1].isEmpty { throw bad("\"-\" names no pages") }
                let lower = bounds[0].isEmpty ? 1 : try number(bounds[0])
                let upper = bounds[1].isEmpty ? Int.max : try number(bounds[1])
                if upper < lower { throw bad("\(part) runs backwards") }
                result.append(lower...upper)
            }
        }
        ranges = result
    }

    init(ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    /// The 1-based pages selected, in order and without repeats, for a document of `pageCount`
    /// pages. Throws when a range starts after the last page.
    public func pages(pageCount: Int) throws(PrintError) -> [Int] {
        var seen = Set<Int>()
        var result: [Int] = []
        for range in ranges {
            if range.lowerBound > pageCount || (range.upperBound != Int.max && range.upperBound > pageCount) {
                let shown = range.upperBound == Int.max ? "\(range.lowerBound)-" :
                    (range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)")
                throw PrintError(.invalidPageRange,
                                 "page range \(shown) is beyond the last page (the document has \(pageCount) page\(pageCount == 1 ? "" : "s"))")
            }
            for page in range.lowerBound...min(range.upperBound, pageCount) where seen.insert(page).inserted {
                result.append(page)
            }
        }
        return result
    }

    /// The IPP `page-ranges` text for a document of `pageCount` pages ("1-3,5").
    public func ippValue(pageCount: Int) throws(PrintError) -> String {
        try Self.compact(pages(pageCount: pageCount))
    }

    /// "1-3,5" for [1, 2, 3, 5].
    public static func compact(_ pages: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < pages.count {
            var end = index
            while end + 1 < pages.count && pages[end + 1] == pages[end] + 1 { end += 1 }
            parts.append(end == index ? "\(pages[index])" : "\(pages[index])-\(pages[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }

    public var description: String {
        ranges.map { range in
            if range.upperBound == Int.max { return "\(range.lowerBound)-" }
            return range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
        }.joined(separator: ",")
    }
}
