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
