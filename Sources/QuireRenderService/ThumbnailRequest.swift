import QuireTypes

/// A batch's thumbnail request (``RenderRequest/thumbnail(_:)``): the path to open, the URI to
/// record and the edge sizes wanted.
package struct ThumbnailRequest: Sendable {
    package var path: [UInt8]
    package var uri: String
    package var sizes: [Int]
    package var maximumFileSize: Int64

    /// The request's fields (after its kind).
    func write(to writer: inout WireWriter) {
        writer.data(path)
        writer.string(uri)
        writer.integer(maximumFileSize)
        writer.integer(Int64(sizes.count))
        for size in sizes { writer.integer(Int64(size)) }
    }

    package init(path: [UInt8], uri: String, sizes: [Int], maximumFileSize: Int64) {
        self.path = path
        self.uri = uri
        self.sizes = sizes
        self.maximumFileSize = maximumFileSize
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        path = try reader.data()
        uri = try reader.string()
        maximumFileSize = try reader.integer()
        let count = try reader.integer()
        guard (0...8).contains(count) else { throw WireReader.Malformed() }
        sizes = []
        for _ in 0..<count { sizes.append(Int(try reader.integer())) }
    }
}
