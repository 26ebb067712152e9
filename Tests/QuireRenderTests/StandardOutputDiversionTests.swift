import Foundation
import Testing
@testable import QuireRender

/// LibreOffice's calls divert descriptors 1 and 2 to /dev/null; overlapping calls from two
/// threads must leave the real descriptors in place afterwards.
@Suite struct StandardOutputDiversionTests {
    /// The file behind a descriptor (device and inode).
    static func identity(_ fd: Int32) -> [UInt64] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return [] }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// The first call ends while the second is still inside: with a save and restore per call,
    /// the second call saved /dev/null and put it back last.
    @Test func overlappingDiversionsRestoreTheRealDescriptors() {
        let output = Self.identity(1), error = Self.identity(2)
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(null) }
        let devNull = Self.identity(null)
        #expect(!output.isEmpty && !devNull.isEmpty)
        final class Seen: @unchecked Sendable { var inside: [UInt64] = [] }   // written before `secondDone`
        let seen = Seen()
        let secondInside = DispatchSemaphore(value: 0), firstDone = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        let second = Thread {
            StandardOutputDiversion.run {
                secondInside.signal()
                firstDone.wait()
                seen.inside = Self.identity(1)
            }
            secondDone.signal()
        }
        StandardOutputDiversion.run {
            #expect(Self.identity(1) == devNull, "diverted inside the call")
            second.start()
            secondInside.wait()
        }
        firstDone.signal()
        secondDone.wait()
        #expect(seen.inside == devNull, "still diverted while the second call runs")
        #expect(Self.identity(1) == output, "standard output is the real one again")
        #expect(Self.identity(2) == error, "standard error is the real one again")
    }
}
