import QuireTypes

/// A thumbnail request (``RenderRequest/thumbnail(_:)``): the path to open, the URI to record,
/// the edge sizes wanted and an encrypted document's password — a batch's file in a worker, or
/// `quire thumbnail FILE OUT`'s in its own process.
package struct ThumbnailRequest: Sendable {
    package var path: [UInt8]
    package var uri: String
    package var sizes: [Int]
    package var maximumFileSize: Int64
    package var password: String?

    /// The request's fields (after its kind).
    func write(to writer: inout WireWriter) {
        writer.data(path)
        writer.string(uri)
        writer.integer(maximumFileSize)
        writer.integer(Int64(sizes.count))
        for size in sizes { writer.integer(Int64(size)) }
        writer.optionalString(password)
    }

    package init(path: [UInt8], uri: String, sizes: [Int], maximumFileSize: Int64, password: String? = nil) {
        self.path = path
        self.uri = uri
        self.sizes = sizes
        self.maximumFileSize = maximumFileSize
        self.password = password
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        path = try reader.data()
        uri = try reader.string()
        maximumFileSize = try reader.integer()
        let count = try reader.integer()
        guard (0...8).contains(count) else { throw WireReader.Malformed() }
        sizes = []
        for _ in 0..<count {
            let size = try reader.integer()
            guard (1...4096).contains(size) else { throw WireReader.Malformed() }
            sizes.append(Int(size))
        }
        password = try reader.optionalString()
    }
}
