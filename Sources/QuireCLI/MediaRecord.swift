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
}
