import QuireSystem

/// Length-prefixed binary framing for the render service's worker pipe (every request and
/// reply, thumbnails and pages alike). A frame is a little-endian `UInt32`
/// length followed by that many bytes; inside, fields are written in order as integers or
/// length-prefixed byte strings, so file names may hold newlines, NULs are impossible, and
/// invalid UTF-8 passes unchanged.
package struct WireWriter {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func data(_ value: [UInt8]) {
        integer(Int64(value.count))
        bytes.append(contentsOf: value)
    }

    package mutating func string(_ value: String) { data(Array(value.utf8)) }

    package mutating func double(_ value: Double) { integer(Int64(bitPattern: value.bitPattern)) }

    package mutating func optionalString(_ value: String?) {
        integer(value == nil ? 0 : 1)
        if let value { string(value) }
    }

    /// The frame: length then payload.
    package var frame: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 4)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: bytes)
        return out
    }
}

/// Reads the fields of one frame's payload in order.
package struct WireReader {
    package struct Malformed: Error {
        package init() {}
    }

    private let bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package mutating func integer() throws(Malformed) -> Int64 {
        guard offset + 8 <= bytes.count else { throw Malformed() }
        var value: Int64 = 0
        for index in (0..<8).reversed() { value = value << 8 | Int64(bytes[offset + index]) }
        offset += 8
        return value
    }

    package mutating func data() throws(Malformed) -> [UInt8] {
        let count = try integer()
        guard count >= 0, offset + Int(count) <= bytes.count else { throw Malformed() }
        defer { offset += Int(count) }
        return Array(bytes[offset..<(offset + Int(count))])
    }

    package mutating func string() throws(Malformed) -> String { String(decoding: try data(), as: UTF8.self) }

    package mutating func double() throws(Malformed) -> Double { Double(bitPattern: UInt64(bitPattern: try integer())) }

    package mutating func optionalString() throws(Malformed) -> String? {
        switch try integer() {
        case 0: return nil
        case 1: return try string()
        default: throw Malformed()
        }
    }

    /// A count of items that follow, checked against `limit` before anything is allocated.
    package mutating func count(atMost limit: Int) throws(Malformed) -> Int {
        let value = try integer()
        guard value >= 0, value <= Int64(limit) else { throw Malformed() }
        return Int(value)
    }

    /// Whether every byte has been read.
    package var isAtEnd: Bool { offset == bytes.count }
}

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
