import QuireSystem

/// Why a worker process could not be started.
package struct WorkerStartError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package let errno: Errno?
    package init(_ message: String, errno: Errno? = nil) {
        self.message = message
        self.errno = errno
    }
    package var description: String { message }
}
