import Quire

/// A video or audio file in `info --json`.
struct MediaRecord: Encodable {
    var durationSeconds: Double?
    var container: String?
    var videoCodec: String?
    var width: Int?
    var height: Int?
    var frameRate: Double?
    var audioCodec: String?
    var channels: Int?
    var sampleRate: Int?
    var audioBitRate: Int?
    var title: String?
    var artist: String?
    var album: String?
    var trackNumber: Int?
    var hasCover: Bool

    init(_ media: MediaInfo) {
        durationSeconds = media.duration
        container = media.container
        videoCodec = media.videoCodec
        width = media.width
        height = media.height
        frameRate = media.frameRate
        audioCodec = media.audioCodec
        channels = media.channels
        sampleRate = media.sampleRate
        audioBitRate = media.audioBitRate
        title = media.title
        artist = media.artist
        album = media.album
        trackNumber = media.trackNumber
        hasCover = media.hasCover
    }

    /// "0:04", "1:02:03" (rounded to the second).
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total % 3600 / 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}
