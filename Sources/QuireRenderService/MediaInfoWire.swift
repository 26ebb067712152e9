import QuireRender

/// A video or audio file's facts on the wire (``DocumentReply/media(_:)``). The cover picture
/// travels as its presence only: `info` says whether there is one.
extension MediaInfo {
    func write(to writer: inout WireWriter) {
        for value in [duration, frameRate] {
            writer.integer(value == nil ? 0 : 1)
            writer.double(value ?? 0)
        }
        for value in [width, height, channels, sampleRate, audioBitRate, trackNumber] {
            writer.integer(Int64(value ?? -1))
        }
        for value in [container, videoCodec, audioCodec, title, artist, album] {
            writer.optionalString(value)
        }
        writer.integer(cover == nil ? 0 : 1)
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        self.init()
        func optionalDouble(_ reader: inout WireReader) throws(WireReader.Malformed) -> Double? {
            let present = try reader.integer() == 1
            let value = try reader.double()
            guard present else { return nil }
            guard value.isFinite, value >= 0 else { throw WireReader.Malformed() }
            return value
        }
        func optionalCount(_ reader: inout WireReader) throws(WireReader.Malformed) -> Int? {
            let value = try reader.integer()
            guard value >= -1, value <= Int64(Int32.max) else { throw WireReader.Malformed() }
            return value < 0 ? nil : Int(value)
        }
        duration = try optionalDouble(&reader)
        frameRate = try optionalDouble(&reader)
        width = try optionalCount(&reader)
        height = try optionalCount(&reader)
        channels = try optionalCount(&reader)
        sampleRate = try optionalCount(&reader)
        audioBitRate = try optionalCount(&reader)
        trackNumber = try optionalCount(&reader)
        container = try reader.optionalString()
        videoCodec = try reader.optionalString()
        audioCodec = try reader.optionalString()
        title = try reader.optionalString()
        artist = try reader.optionalString()
        album = try reader.optionalString()
        cover = try reader.integer() == 1 ? [] : nil
    }
}
