/// Limits on a render worker process: its address space, and CPU time per request (the parent
/// also enforces a wall-clock timeout, from outside: poppler cannot be cancelled in-process).
public struct WorkerLimits: Sendable, Hashable {
    /// Address-space limit in bytes (0 = none).
    public var memoryBytes: UInt64
    /// CPU seconds allowed per request (0 = none).
    public var cpuSecondsPerRequest: Int

    public init(memoryBytes: UInt64 = 2 << 30, cpuSecondsPerRequest: Int = 30) {
        self.memoryBytes = memoryBytes
        self.cpuSecondsPerRequest = cpuSecondsPerRequest
    }

    public static let standard = WorkerLimits()
}
