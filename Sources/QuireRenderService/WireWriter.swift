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
