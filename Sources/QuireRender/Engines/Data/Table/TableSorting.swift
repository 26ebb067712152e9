#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import Synchronization

/// A table being sorted on a thread of its own (``TableSortOrder``), so that whoever asked can
/// say how far it is (``progress``) while it goes on, and have the order once it is done
/// (``wait(seconds:)``). Dropping it stops the sort at its next batch of rows.
public final class TableSorting: Sendable {
    public let column: Int
    public let descending: Bool
    private let shared: Shared
    private let thread: Mutex<JoinableThread?>

    private final class Shared: Sendable {
        struct State {
            var progress = 0.0
            var order: TableSortOrder?
            var isFinished = false
        }
        let state = Mutex(State())
        let cancelled = Atomic(false)
    }

    public init(table: DelimitedTable, column: Int, descending: Bool) {
        self.column = column
        self.descending = descending
        let shared = Shared()
        self.shared = shared
        thread = Mutex(JoinableThread(stackSize: 512 << 10) {
            let order = TableSortOrder(table: table, column: column, descending: descending) { share in
                shared.state.withLock { $0.progress = share }
                return !shared.cancelled.load(ordering: .relaxed)
            }
            shared.state.withLock {
                $0.order = order
                $0.isFinished = true
            }
        })
    }

    deinit {
        shared.cancelled.store(true, ordering: .relaxed)
        thread.withLock { $0 }?.join()
    }

    /// The share of the sort done (0…1).
    public var progress: Double { shared.state.withLock { $0.progress } }

    /// The sorted order, waiting for it at most `seconds`; nil while it is still being sorted.
    public func wait(seconds: Double) -> TableSortOrder? {
        let deadline = DelimitedTable.now() + seconds
        while true {
            let (finished, order) = shared.state.withLock { ($0.isFinished, $0.order) }
            if finished { return order }
            if DelimitedTable.now() >= deadline { return nil }
            usleep(5_000)
        }
    }
}
