/// The first frame a worker writes: proof that it started (inside its sandbox) and speaks
/// this protocol version.
enum WorkerHandshake {
    static let magic = "quire-thumbnail-worker 2"

    static var frame: [UInt8] {
        var writer = WireWriter()
        writer.string(magic)
        return writer.frame
    }

    static func isValid(_ payload: [UInt8]) -> Bool {
        var reader = WireReader(payload)
        return (try? reader.string()) == magic
    }
}
