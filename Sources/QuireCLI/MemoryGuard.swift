import Quire
import QuireRenderService
import QuireSystem

/// The memory limit of the one-shot commands that decode documents in their own process
/// (`thumbnail FILE OUT`, `info`, `preview`, `print`): the same limit as the batch's workers
/// (``Limit/memory``, default 2 GiB), set as this process's `RLIMIT_AS` when the first file is
/// read, and the one line said when a file needs more (``MemoryLimit``). ``Watchdog`` calls
/// ``guarding(_:)`` for every file it times, so each command that limits a file's time limits
/// its memory too.
enum MemoryGuard {
    /// The limit in MiB (the command sets it from `--memory-limit` / `QUIRE_MEMORY_LIMIT`).
    nonisolated(unsafe) static var mebibytes = LimitOptions.defaultMemoryMiB
    nonisolated(unsafe) private static var applied = false

    /// Limits this process's memory (once) and names `path` in the line said if it runs out.
    static func guarding(_ path: DocumentPath) {
        if !applied {
            applied = true
            MemoryLimit.apply(bytes: UInt64(mebibytes) << 20)
            CommandInterpreters.sandbox.setWorkerMemory(bytes: UInt64(mebibytes) << 20)
        }
        MemoryLimit.report(
            exhausted: "quire: \(path): needs more memory than the limit of \(mebibytes) MiB (\(Limit.memory.option))\n",
            status: ExitStatus.dataError.rawValue,
            crashed: "quire: \(path): the reader crashed on it (if it ran out of memory, raise the limit of \(mebibytes) MiB with \(Limit.memory.option))\n",
            status: ExitStatus.software.rawValue)
    }
}
