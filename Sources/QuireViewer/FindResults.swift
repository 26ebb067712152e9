import QuireRenderService

/// A search of the current file as the front-ends show it: the word, the matches found so far
/// (in document order, at most ``maximumMatches``), which one is current, how far the worker
/// has scanned, and the pages found to carry no text. Filled in by the model as the render
/// thread's answers arrive (``ViewerModel/find(_:)``).
public struct FindResults: Sendable {
    /// Matches kept and counted at most (a search for "e" in a long document stops there).
    public static let maximumMatches = 10_000

    public internal(set) var query = ""
    /// The model's file index the search is of.
    public internal(set) var file = 0
    /// Whether pages are lines of text (text shown as text).
    public internal(set) var isText = false
    /// In document order (page, then place on the page).
    public internal(set) var matches: [FindMatch] = []
    /// Index in ``matches`` of the match shown.
    public internal(set) var current: Int?
    /// Pages (or lines) in the document, and how many have been scanned.
    public internal(set) var total = 0
    public internal(set) var scanned = 0
    public internal(set) var isSearching = false
    /// Pages scanned that carry no text at all (images).
    public internal(set) var textlessPages: Set<Int> = []
    /// Why the search stopped early (the worker failed on a page), if it did.
    public internal(set) var problem: String?

    var generation = 0
    /// The job's runs, and how far each has been scanned.
    private var runs: [Range<Int>] = []
    private var cursors: [Int] = []
    /// Matches of the wrapped run (pages before the start), kept at the front.
    private var wrapped = 0

    public init() {}

    init(job: SearchJob, total: Int, isText: Bool) {
        query = job.query
        file = job.file
        generation = job.generation
        self.total = total
        self.isText = isText
        runs = job.runs
        cursors = job.runs.map(\.lowerBound)
        isSearching = !job.runs.isEmpty
    }

    /// Whether a search is on (a word was asked for).
    public var isActive: Bool { !query.isEmpty }

    public var currentMatch: FindMatch? { current.map { matches[$0] } }

    /// Whether the count stopped at ``maximumMatches``.
    public var isCapped: Bool { matches.count >= Self.maximumMatches }

    /// The matches on page (or line) `page`, in order.
    public func matches(onPage page: Int) -> ArraySlice<FindMatch> {
        let first = lowerBound(page), end = lowerBound(page + 1)
        return matches[first..<max(first, end)]
    }

    /// The first index whose page is at least `page` (the list is sorted by page).
    private func lowerBound(_ page: Int) -> Int {
        var low = 0, high = matches.count
        while low < high {
            let middle = (low + high) / 2
            if matches[middle].page < page { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether page `page` is known to carry no text (scanned, and none found).
    public func isTextless(page: Int) -> Bool { textlessPages.contains(page) }

    /// "3 of 17", "No matches", "Searching… 340 of 1000 pages", "3 of 10000+".
    public var statusText: String {
        guard isActive else { return "" }
        let unit = isText ? "lines" : "pages"
        var text: String
        if let current, !matches.isEmpty {
            text = "\(current + 1) of \(matches.count)\(isCapped ? "+" : "")"
            if isSearching { text += " (searching, \(scanned) of \(total) \(unit))" }
        } else if isSearching {
            text = "Searching… \(scanned) of \(total) \(unit)"
        } else {
            text = "No matches"
            if !isText, total > 0, textlessPages.count == total { text += " (the document has no text: its pages are images)" }
        }
        if let problem { text += " — search stopped: \(problem)" }
        return text
    }

    /// Takes one answer of the render thread; true when it brought the first match (which is
    /// made current: the view moves to it).
    mutating func receive(run: Int, _ result: Result<SearchChunk, RenderProblem>, finished: Bool) -> Bool {
        if finished { isSearching = false }
        let chunk: SearchChunk
        switch result {
        case .failure(let failure):
            problem = failure.message
            return false
        case .success(let answer): chunk = answer
        }
        guard runs.indices.contains(run) else { return false }
        cursors[run] = max(cursors[run], min(chunk.next, runs[run].upperBound))
        scanned = zip(runs, cursors).reduce(0) { $0 + ($1.1 - $1.0.lowerBound) }
        textlessPages.formUnion(chunk.textlessPages)
        let room = Self.maximumMatches - matches.count
        let found = Array(chunk.matches.prefix(max(0, room)))
        guard !found.isEmpty else { return false }
        let insertion: Int
        if run == 0 {
            insertion = matches.count
            matches.append(contentsOf: found)
        } else {
            // Pages before the start: after the wrapped matches already found, before the rest.
            insertion = wrapped
            matches.insert(contentsOf: found, at: wrapped)
            wrapped += found.count
            if let index = current, index >= insertion { current = index + found.count }
        }
        if current == nil {
            current = insertion
            return true
        }
        return false
    }

    /// Moves to the next (`step` 1) or previous (-1) match, round the document; false when
    /// there is none.
    mutating func step(_ step: Int) -> Bool {
        guard !matches.isEmpty else { return false }
        guard let index = current else {
            current = step > 0 ? 0 : matches.count - 1
            return true
        }
        current = ((index + step) % matches.count + matches.count) % matches.count
        return true
    }
}
