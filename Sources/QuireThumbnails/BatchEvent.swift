import QuireRenderService
/// Progress of a batch, delivered in order (never concurrently) to the caller's handler.
public enum BatchEvent: Sendable {
    /// The walk is done: `toGenerate` files go to the workers; `sandbox` says how they are confined.
    case planned(toGenerate: Int, alreadyHandled: Int, sandbox: WorkerSandbox)
    /// One file is finished.
    case file(BatchFileResult)
}
