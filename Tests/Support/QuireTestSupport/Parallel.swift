import Foundation

/// Runs blocking work (such as ``ProcessRunner/run(bytes:environment:timeout:workingDirectory:)``)
/// on a fixed number of threads, outside Swift's cooperative pool (which has one thread per core
/// and must not be blocked).
public enum Parallel {
    /// `body` applied to every element, `width` at a time; results in input order.
    public static func map<T: Sendable, R: Sendable>(_ items: [T], width: Int,
                                                     _ body: @escaping @Sendable (T) -> R) -> [R] {
        let state = ParallelState<R>(count: items.count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(width, items.count)) {
            group.enter()
            let thread = Thread {
                while true {
                    state.lock.lock()
                    let index = state.next
                    state.next += 1
                    state.lock.unlock()
                    guard index < items.count else { break }
                    let result = body(items[index])
                    state.lock.lock()
                    state.results[index] = result
                    state.lock.unlock()
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return state.results.map { $0! }
    }
}

/// The shared cursor and results of one ``Parallel/map(_:width:_:)`` (guarded by `lock`).
private final class ParallelState<R: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var results: [R?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
}
