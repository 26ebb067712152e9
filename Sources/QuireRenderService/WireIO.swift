import QuireSystem

/// Blocking whole-frame I/O on a descriptor (the system layer's ``FileDescriptor``).
package enum WireIO {
    /// Largest frame accepted (a 1024 px RGBA PNG is at most ~4 MiB per flavor).
    package static let maximumFrame = 64 << 20

    /// Writes a whole frame; false when the pipe is closed or broken.
    package static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8]) -> Bool {
        (try? fd.writeAll(bytes)) != nil
    }

    /// Reads exactly `count` bytes; nil on end of file or error.
    package static func readExactly(_ fd: FileDescriptor, _ count: Int) -> [UInt8]? {
        (try? fd.read(exactly: count)) ?? nil
    }

    /// Reads one frame's payload; nil on end of file, error or an oversized frame.
    package static func readFrame(_ fd: FileDescriptor) -> [UInt8]? {
        guard let header = readExactly(fd, 4) else { return nil }
        let length = Int(UInt32(header[0]) | UInt32(header[1]) << 8 | UInt32(header[2]) << 16 | UInt32(header[3]) << 24)
        guard length <= maximumFrame else { return nil }
        if length == 0 { return [] }
        return readExactly(fd, length)
    }
}
