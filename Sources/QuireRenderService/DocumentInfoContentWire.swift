import FoundationEssentials
import QuireRender
import QuireTypes

/// The info card's content facts on the wire (``DocumentReply/info(_:)``): the facts as JSON
/// (every family's record is Codable: one codec for sixteen records of their own shapes), then
/// the problem as its kind, reason and whether a password would help. A video's cover picture
/// travels as its presence only, as ``MediaInfo``'s own wire does; the problem's path is the
/// client's (``RenderClient/info(_:showLocation:)`` puts it back).
extension DocumentInfo.Content {
    func write(to writer: inout WireWriter) {
        var sent = self
        if sent.media?.cover != nil { sent.media?.cover = [] }
        // Every field is a plain value (strings, numbers, arrays); a number JSON has no word
        // for (a NaN or infinite exposure, frame rate…) is written as a string, not refused.
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = Self.nonConformingFloats.encoding
        writer.data((try? encoder.encode(sent)).map(Array.init) ?? Array("{}".utf8))
        if let problem {
            writer.integer(1)
            writer.string(problem.kind.rawValue)
            writer.string(problem.reason)
            writer.integer(problem.remedy == .password ? 1 : 0)
        } else {
            writer.integer(0)
        }
    }

    /// The words a NaN or an infinity is written as, both ways.
    private static let nonConformingFloats = (
        encoding: JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"),
        decoding: JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let json = try reader.data()
        do {
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = Self.nonConformingFloats.decoding
            self = try decoder.decode(DocumentInfo.Content.self, from: Data(json))
        } catch {
            throw WireReader.Malformed()
        }
        switch try reader.integer() {
        case 0: problem = nil
        case 1:
            guard let kind = DocumentError.Kind(rawValue: try reader.string()) else { throw WireReader.Malformed() }
            let reason = try reader.string()
            let remedy: Remedy?
            switch try reader.integer() {
            case 0: remedy = nil
            case 1: remedy = .password
            default: throw WireReader.Malformed()
            }
            problem = DocumentError(kind: kind, path: nil, reason: reason, remedy: remedy)
        default: throw WireReader.Malformed()
        }
    }
}
