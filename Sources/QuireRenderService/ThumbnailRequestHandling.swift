/// Who answers the worker's `thumbnail` requests (QuireThumbnails' `ThumbnailWorker`): the
/// render service carries them on its pipe without knowing their payload.
public protocol ThumbnailRequestHandling: Sendable {
    /// The reply frame for a request's payload (what follows the request kind), or nil when the
    /// payload is malformed (the worker then exits: its parent is not speaking the protocol).
    func replyFrame(to payload: [UInt8], hooks: WorkerTestHooks) -> [UInt8]?
}
