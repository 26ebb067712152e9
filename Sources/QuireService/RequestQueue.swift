import FoundationEssentials
import Synchronization

/// Pending thumbnail requests, shared between the D-Bus thread (which queues and dequeues) and
/// the task that works through them. Foreground requests go before the others.
final class RequestQueue: Sendable {
    private struct State {
        var nextHandle: UInt32 = 1
        var pending: [ThumbnailRequest] = []
        var running: UInt32?
        var cancelled: Set<UInt32> = []
        var lastActivity = Date()
        var waiter: CheckedContinuation<ThumbnailRequest?, Never>?
        var closed = false
    }

    private let state = Mutex(State())

    /// Adds a request and returns its handle.
    func enqueue(uris: [String], flavor: String, scheduler: ThumbnailRequest.Scheduler) -> UInt32 {
        let waiter: CheckedContinuation<ThumbnailRequest?, Never>?
        let request: ThumbnailRequest
        (waiter, request) = state.withLock { state in
            let handle = state.nextHandle
            state.nextHandle = state.nextHandle == UInt32.max ? 1 : state.nextHandle + 1
            let request = ThumbnailRequest(handle: handle, uris: uris, flavor: flavor, scheduler: scheduler)
            state.lastActivity = Date()
            if let waiter = state.waiter {
                state.waiter = nil
                state.running = handle
                return (waiter, request)
            }
            state.pending.append(request)
            return (nil, request)
        }
        waiter?.resume(returning: request)
        return request.handle
    }

    /// Removes a queued request, or asks a running one to stop. Returns false if the handle is
    /// unknown (already finished, or never issued).
    @discardableResult
    func dequeue(_ handle: UInt32) -> Bool {
        state.withLock { state in
            state.lastActivity = Date()
            if let index = state.pending.firstIndex(where: { $0.handle == handle }) {
                state.pending.remove(at: index)
                return true
            }
            if state.running == handle {
                state.cancelled.insert(handle)
                return true
            }
            return false
        }
    }

    func isCancelled(_ handle: UInt32) -> Bool {
        state.withLock { $0.cancelled.contains(handle) }
    }

    /// The next request to run (waits for one); nil once the queue is closed.
    func next() async -> ThumbnailRequest? {
        await withCheckedContinuation { continuation in
            let ready: ThumbnailRequest?? = state.withLock { state in
                if let running = state.running { state.cancelled.remove(running) }
                state.running = nil
                state.lastActivity = Date()
                if state.closed { return .some(nil) }
                let index = state.pending.firstIndex { $0.scheduler == .foreground } ?? (state.pending.isEmpty ? nil : 0)
                if let index {
                    let request = state.pending.remove(at: index)
                    state.running = request.handle
                    return .some(request)
                }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Seconds since anything happened, or nil while work is queued or running.
    var idleSeconds: Double? {
        state.withLock { state in
            guard state.pending.isEmpty, state.running == nil else { return nil }
            return Date().timeIntervalSince(state.lastActivity)
        }
    }

    /// Stops `next()` from waiting.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<ThumbnailRequest?, Never>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}
