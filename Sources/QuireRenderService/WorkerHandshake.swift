/// The first frame a worker writes: proof that it started (inside its sandbox) and speaks
/// this protocol version.
package enum WorkerHandshake {
    package static let magic = "quire-render-worker 3"

    package static var frame: [UInt8] {
        var writer = WireWriter()
        writer.string(magic)
        return writer.frame
    }

    package static func isValid(_ payload: [UInt8]) -> Bool {
        var reader = WireReader(payload)
        return (try? reader.string()) == magic
    }
}
