import Synchronization

/// Where a delimited file's rows start, found lazily: records are scanned in chunks from the
/// start only as far as a request needs (the first screen reads a few kilobytes of a gigabyte),
/// and a background count (``DelimitedTable/startCounting()``) scans the rest chunk by chunk.
/// Only every ``stride``-th row's offset is kept — ten million rows take 1.25 MB — and a row is
/// found from the checkpoint before it (at most `stride - 1` records to pass). Pages scanned are
/// given back to the kernel, so counting a gigabyte does not keep it resident.
final class TableRowIndex: Sendable {
    /// Rows between two kept offsets.
    static let stride = 64
    /// Bytes scanned at a time (the lock is held for one chunk: a few milliseconds).
    static let chunkBytes = 4 << 20

    private struct State {
        /// The start of rows 0, stride, 2·stride…
        var checkpoints: [Int] = []
        /// Rows found so far.
        var rows = 0
        /// Where scanning goes on (a record's start).
        var offset: Int
        /// The whole file is scanned (or the table stopped at ``stopped``).
        var isComplete = false
        /// A record too long to be a row: the table ends before it (its offset).
        var stopped: Int?
    }

    let file: MappedFile
    let encoding: TableEncoding
    let delimiter: UInt16
    private let state: Mutex<State>
    /// Set when the table is closed: a background count stops at its next chunk.
    private let cancelled = Atomic(false)

    init(file: MappedFile, encoding: TableEncoding, delimiter: UInt16) {
        self.file = file
        self.encoding = encoding
        self.delimiter = delimiter
        state = Mutex(State(offset: min(encoding.markLength, file.count)))
    }

    private var scanner: TableScanner { TableScanner(bytes: file.bytes, encoding: encoding, delimiter: delimiter) }

    /// What is known now: rows found, bytes scanned, whether that is all, where it stopped.
    var progress: (rows: Int, scanned: Int, isComplete: Bool, stopped: Int?) {
        state.withLock { ($0.rows, $0.offset, $0.isComplete, $0.stopped) }
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Scans one more chunk; false when there is nothing left to scan.
    @discardableResult
    func advance() -> Bool {
        state.withLock { state in
            guard !state.isComplete else { return false }
            scan(&state, untilRow: Int.max)
            return !state.isComplete
        }
    }

    /// The byte ranges of rows `range` (fewer at the end of the table), scanning as far as they need.
    func records(_ range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        let scanner = self.scanner
        return state.withLock { state in
            while !state.isComplete && state.rows < range.upperBound { scan(&state, untilRow: range.upperBound) }
            let wanted = range.clamped(to: 0..<state.rows)
            guard !wanted.isEmpty else { return [] }
            var offset = state.checkpoints[wanted.lowerBound / Self.stride]
            var row = wanted.lowerBound / Self.stride * Self.stride
            var found: [Range<Int>] = []
            found.reserveCapacity(wanted.count)
            while row < wanted.upperBound, let record = scanner.record(from: offset), case .row(let bytes, let next) = record {
                offset = next
                guard !bytes.isEmpty else { continue }  // blank lines are not rows
                if row >= wanted.lowerBound { found.append(bytes) }
                row += 1
            }
            return found
        }
    }

    /// How many rows start before byte `limit`, scanning that far; whether that is every row.
    func rowCount(within limit: Int) -> (rows: Int, isAll: Bool) {
        let scanner = self.scanner
        return state.withLock { state in
            while !state.isComplete && state.offset < limit { scan(&state, untilRow: Int.max) }
            if state.isComplete && state.offset <= limit { return (state.rows, true) }
            // From the last checkpoint before the limit, count the rows that start before it.
            guard let checkpoint = state.checkpoints.lastIndex(where: { $0 < limit }) else { return (0, state.rows == 0) }
            var offset = state.checkpoints[checkpoint]
            var rows = checkpoint * Self.stride
            while offset < limit, rows < state.rows, let record = scanner.record(from: offset), case .row(let bytes, let next) = record {
                if !bytes.isEmpty { rows += 1 }
                offset = next
            }
            return (rows, rows == state.rows && state.isComplete)
        }
    }

    /// Scans one chunk (or until `untilRow` rows are known), keeping checkpoints.
    private func scan(_ state: inout State, untilRow: Int) {
        let scanner = self.scanner
        let chunkStart = state.offset
        let chunkEnd = chunkStart + Self.chunkBytes
        var offset = state.offset
        while offset < chunkEnd && state.rows < untilRow {
            guard let record = scanner.record(from: offset) else {
                state.isComplete = true
                break
            }
            switch record {
            case .tooLong(let start):
                state.stopped = start
                state.isComplete = true
            case .row(let bytes, let next):
                if !bytes.isEmpty {
                    if state.rows % Self.stride == 0 { state.checkpoints.append(offset) }
                    state.rows += 1
                }
                offset = next
            }
            if state.isComplete { break }
        }
        state.offset = offset
        if offset >= scanner.end { state.isComplete = true }
        // The pages passed are not needed again soon: give them back (the first chunk is kept,
        // it is what is on screen).
        if chunkStart > 0 { file.release(chunkStart..<offset) }
    }
}
