import ArgumentParser

/// Page numbers from `--page N` or `--pages RANGE` ("1-3,5,8-", "all"), 1-based on the command
/// line, 0-based once resolved against the page count.
enum PageSelection {
    /// Parses `text` for a document of `pageCount` pages into 0-based indices, in order,
    /// without duplicates. A page past the last is a ``DocumentUsageError`` about `path`.
    static func parse(_ text: String, pageCount: Int, path: String) throws -> [Int] {
        if text == "all" || text == "-" { return Array(0..<pageCount) }
        var result: [Int] = []
        var seen = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let piece = part.trimmingWhitespace()
            let bounds = piece.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let first: Int, last: Int
            if bounds.count == 1, let single = Int(bounds[0]) {
                first = single; last = single
            } else if bounds.count == 2 {
                guard let lower = bounds[0].isEmpty ? 1 : Int(bounds[0]),
                      let upper = bounds[1].isEmpty ? pageCount : Int(bounds[1]) else {
                    throw ValidationError("Not a page range: '\(piece)' (use e.g. 1-3,5).")
                }
                first = lower; last = upper
            } else {
                throw ValidationError("Not a page range: '\(piece)' (use e.g. 1-3,5).")
            }
            guard first >= 1, last >= first else {
                throw ValidationError("Not a page range: '\(piece)' (pages count from 1).")
            }
            guard last <= pageCount else {
                throw DocumentUsageError.noPage(last, of: pageCount, path: path)
            }
            for page in first...last where seen.insert(page - 1).inserted { result.append(page - 1) }
        }
        return result
    }
}

import FoundationEssentials
