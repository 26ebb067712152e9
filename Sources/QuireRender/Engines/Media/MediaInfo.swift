internal import CGStreamer
import QuireTypes

/// What GStreamer's discoverer reads of a video or audio file without playing it: duration,
/// container, each stream's codec and format, and the tags (title, artist, album, track, the
/// embedded cover picture).
public struct MediaInfo: Sendable, Hashable, Codable {
    public var duration: Double?
    public var container: String?
    public var videoCodec: String?
    public var width: Int?
    public var height: Int?
    /// Frames per second (nil for a still image stream or when unknown).
    public var frameRate: Double?
    public var audioCodec: String?
    public var channels: Int?
    public var sampleRate: Int?
    /// Bits per second of the audio stream, when the file says.
    public var audioBitRate: Int?
    public var title: String?
    public var artist: String?
    public var album: String?
    public var trackNumber: Int?
    /// The embedded cover picture's encoded bytes (ID3 APIC, FLAC/Vorbis pictures, MP4 covr);
    /// empty when only its presence is known (facts read by a sandboxed worker for `info`).
    public var cover: [UInt8]?

    public init() {}

    public var hasVideo: Bool { width != nil }

    /// The card's facts: length, picture, codecs, album.
    public var details: [CardRow] {
        var details: [CardRow] = []
        if let duration { details.append(CardRow("Duration", DurationText.clock(duration))) }
        if let width, let height {
            details.append(CardRow("Video", [videoCodec, "\(width) × \(height)", frameRate.map { "\(Int($0.rounded())) fps" }]
                .compactMap { $0 }.joined(separator: ", ")))
        }
        if let audioCodec { details.append(CardRow("Audio", audioCodec)) }
        if let album { details.append(CardRow("Album", trackNumber.map { "\(album), track \($0)" } ?? album)) }
        return details
    }
    public var hasCover: Bool { cover != nil }

    /// Seconds the discoverer may take on one file.
    static let discoveryTimeout: UInt64 = 10

    /// Reads `file`'s streams and tags.
    /// - Throws: ``DocumentError`` `damaged` when GStreamer cannot read the file, `unsupported`
    ///   when a decoder it needs is not installed.
    public static func read(_ file: InputFile) throws(DocumentError) -> MediaInfo {
        let gst = try LazyLibraries.gstreamer(file.path)
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst.gst_discoverer_new(discoveryTimeout * quire_gst_second, &error) else {
            defer { if let error { g_error_free(error) } }
            throw DocumentError(kind: .unsupported, path: file.path, reason: "GStreamer could not start its discoverer")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(discoverer)) }
        let uri = "file://" + file.procPath
        let found = gst.gst_discoverer_discover_uri(discoverer, uri, &error)
        defer { if let found { g_object_unref(UnsafeMutableRawPointer(found)) } }
        let message = error.map { String(cString: $0.pointee.message) }
        if let error { g_error_free(error) }
        guard let found else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable video or audio file (\(message ?? "unknown error"))")
        }
        switch gst.gst_discoverer_info_get_result(found) {
        case quire_gst_discoverer_ok: break
        case quire_gst_discoverer_missing_plugins:
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "no GStreamer decoder for this file is installed (\(message ?? "missing plugins"))")
        case quire_gst_discoverer_timeout:
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "GStreamer took over \(discoveryTimeout) s to read the file")
        default:
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable video or audio file (\(message ?? "unknown error"))")
        }
        var info = MediaInfo()
        let duration = gst.gst_discoverer_info_get_duration(found)
        if duration != quire_gst_clock_time_none, duration > 0 { info.duration = Double(duration) / Double(quire_gst_second) }
        // A Matroska or WebM file's own title is its container's (the segment's title, a global
        // tag): the tags of the whole discovery also hold each track's name, and a WebM's sound
        // track called "Audio" was taken for the title. Elsewhere a stream's title is the
        // file's (Ogg's Vorbis comments, an MP3's ID3 tag).
        // (The container's tags belong to its stream information, kept until the end.)
        let top = gst.gst_discoverer_info_get_stream_info(found)
        defer { if let top { g_object_unref(UnsafeMutableRawPointer(top)) } }
        var containerTags: OpaquePointer?
        if let top {
            info.container = description(of: top, gst)
            let isMatroska = ["Matroska", "WebM"].contains { info.container?.contains($0) == true }
            if isMatroska, String(cString: gst.gst_discoverer_stream_info_get_stream_type_nick(top)) == "container" {
                containerTags = gst.gst_discoverer_container_info_get_tags(top)
            }
        }
        let videos = gst.gst_discoverer_info_get_video_streams(found)
        defer { gst.gst_discoverer_stream_info_list_free(videos) }
        var node = videos
        // Still pictures (cover art carried as a stream) are not video.
        while let current = node {
            let stream = OpaquePointer(current.pointee.data)!
            node = current.pointee.next
            guard gst.gst_discoverer_video_info_is_image(stream) == 0 else { continue }
            info.width = Int(gst.gst_discoverer_video_info_get_width(stream))
            info.height = Int(gst.gst_discoverer_video_info_get_height(stream))
            let numerator = gst.gst_discoverer_video_info_get_framerate_num(stream)
            let denominator = gst.gst_discoverer_video_info_get_framerate_denom(stream)
            info.frameRate = numerator > 0 && denominator > 0 ? Double(numerator) / Double(denominator) : nil
            info.videoCodec = description(of: stream, gst)
            break
        }
        let audios = gst.gst_discoverer_info_get_audio_streams(found)
        defer { gst.gst_discoverer_stream_info_list_free(audios) }
        if let first = audios {
            let stream = OpaquePointer(first.pointee.data)!
            info.audioCodec = description(of: stream, gst)
            info.channels = Int(gst.gst_discoverer_audio_info_get_channels(stream))
            info.sampleRate = Int(gst.gst_discoverer_audio_info_get_sample_rate(stream))
            let rate = gst.gst_discoverer_audio_info_get_bitrate(stream)
            info.audioBitRate = rate > 0 ? Int(rate) : nil
        }
        if let tags = gst.gst_discoverer_info_get_tags(found) {
            func string(_ tag: String) -> String? {
                var value: UnsafeMutablePointer<CChar>?
                guard gst.gst_tag_list_get_string(tags, tag, &value) != 0, let value else { return nil }
                defer { g_free(value) }
                let text = String(cString: value)
                return text.isEmpty ? nil : String(text.prefix(500))
            }
            if let containerTags {
                var value: UnsafeMutablePointer<CChar>?
                if gst.gst_tag_list_get_string(containerTags, "title", &value) != 0, let value {
                    let text = String(cString: value)
                    g_free(value)
                    info.title = text.isEmpty ? nil : String(text.prefix(500))
                }
            } else {
                info.title = string("title")
            }
            info.artist = string("artist")
            info.album = string("album")
            var track: UInt32 = 0
            if gst.gst_tag_list_get_uint(tags, "track-number", &track) != 0, track > 0 { info.trackNumber = Int(track) }
            for tag in ["image", "preview-image"] where info.cover == nil {
                var sample: OpaquePointer?
                guard gst.gst_tag_list_get_sample(tags, tag, &sample) != 0, let sample else { continue }
                defer { gst.gst_mini_object_unref(sample) }
                guard let buffer = gst.gst_sample_get_buffer(sample) else { continue }
                var map = quire_gst_map_info()
                guard gst.gst_buffer_map(buffer, &map, quire_gst_map_read) != 0 else { continue }
                defer { gst.gst_buffer_unmap(buffer, &map) }
                if let data = map.data, map.size > 0, map.size <= 32 << 20 {
                    info.cover = Array(UnsafeBufferPointer(start: data, count: map.size))
                }
            }
        }
        guard info.hasVideo || info.audioCodec != nil else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the file has no video or audio stream")
        }
        return info
    }

    private static func description(of stream: OpaquePointer, _ gst: quire_gstreamer_api) -> String? {
        guard let caps = gst.gst_discoverer_stream_info_get_caps(stream) else { return nil }
        defer { gst.gst_mini_object_unref(caps) }
        guard let text = gst.gst_pb_utils_get_codec_description(caps) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
