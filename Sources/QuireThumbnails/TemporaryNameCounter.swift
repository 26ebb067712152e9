#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import QuireTypes

/// A process-wide counter for unique temporary names.
final class TemporaryNameCounter: @unchecked Sendable {
    private let lock = Lock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
