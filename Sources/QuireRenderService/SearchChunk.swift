/// The worker's answer to one ``SearchRequest``: the matches on the pages it scanned, in
/// order, and the first page it did not scan (the request's `to` when it finished the run).
public struct SearchChunk: Sendable, Hashable {
    public var matches: [FindMatch]
    /// The next page to scan (pages `from..<next` were scanned).
    public var next: Int
    /// Scanned pages that carry no text at all (scanned images): nothing on them can be found.
    public var textlessPages: [Int]

    public init(matches: [FindMatch], next: Int, textlessPages: [Int]) {
        self.matches = matches
        self.next = next
        self.textlessPages = textlessPages
    }

    /// Most matches and textless pages one reply carries.
    static let maximumItems = 1 << 20

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(next))
        writer.integer(Int64(matches.count))
        for match in matches { match.write(to: &writer) }
        writer.integer(Int64(textlessPages.count))
        for page in textlessPages { writer.integer(Int64(page)) }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let next = try reader.integer()
        guard next >= 0, next < 1 << 31 else { throw WireReader.Malformed() }
        self.next = Int(next)
        let count = try reader.count(atMost: Self.maximumItems)
        var matches: [FindMatch] = []
        for _ in 0..<count { matches.append(try FindMatch(reading: &reader)) }
        self.matches = matches
        let textless = try reader.count(atMost: Self.maximumItems)
        var pages: [Int] = []
        for _ in 0..<textless {
            let page = try reader.integer()
            guard page >= 0, page < 1 << 31 else { throw WireReader.Malformed() }
            pages.append(Int(page))
        }
        textlessPages = pages
    }
}
