#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem

/// A non-blocking pipe used as a doorbell between threads: ``ring()`` from any thread makes the
/// read end readable, so a thread waiting in `poll(2)` (on its worker, or idle) wakes up.
final class WakePipe: Sendable {
    let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    init() {
        if let pipe = try? FileDescriptor.pipe() {
            readEnd = pipe.readEnd
            writeEnd = pipe.writeEnd
            for end in [readEnd, writeEnd] { _ = fcntl(end.rawValue, F_SETFL, fcntl(end.rawValue, F_GETFL) | O_NONBLOCK) }
        } else {
            // Out of descriptors: a pipe that never rings still lets the thread poll with timeouts.
            readEnd = FileDescriptor(rawValue: -1)
            writeEnd = FileDescriptor(rawValue: -1)
        }
    }

    deinit {
        if readEnd.rawValue >= 0 { try? readEnd.close() }
        if writeEnd.rawValue >= 0 { try? writeEnd.close() }
    }

    /// Makes the read end readable (a full pipe already is).
    func ring() {
        var byte: UInt8 = 1
        _ = write(writeEnd.rawValue, &byte, 1)
    }

    /// Waits until rung (or `milliseconds`, -1 for ever), then empties the pipe.
    func wait(milliseconds: Int32 = -1) {
        var fd = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
        while poll(&fd, 1, milliseconds) < 0 && errno == EINTR {}
        drain()
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(readEnd.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    }
}
