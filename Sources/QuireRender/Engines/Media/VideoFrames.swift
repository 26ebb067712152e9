internal import CGStreamer
internal import CCairo
import QuireTypes

/// Frames of a video, decoded on demand by one paused GStreamer pipeline (`uridecodebin` →
/// convert and scale to square pixels in cairo's RGB24 layout → `appsink`): seek, preroll, copy
/// the frame. The file is opened by its descriptor (`/proc/self/fd/N`); nothing plays, no
/// sound device is opened, and the pipeline is torn down with this object.
final class VideoFrames {
    private let gst: quire_gstreamer_api
    private let pipeline: OpaquePointer   // GstElement*
    private let sink: OpaquePointer       // GstElement* (appsink)
    private let path: DocumentPath
    private let maximumPixels: Int
    /// Seconds one seek and preroll may take.
    static let prerollTimeout: UInt64 = 10
    /// Seconds the sink may take to hand over a frame once the pipeline has prerolled.
    static let prerolledPullTimeout: UInt64 = 2
    /// Set once a seek or its preroll has not finished in time. The pipeline is then stuck (seen
    /// with a truncated WebM: now and then GStreamer never prerolls after a flushing seek), and
    /// every later frame would wait the whole time-out again, so none is asked for: a poster
    /// search ends with the frames it has instead of taking a time-out per candidate.
    private(set) var stalled = false

    init(file: InputFile, limits: RenderLimits) throws(DocumentError) {
        path = file.path
        maximumPixels = limits.maximumImagePixels
        let gst = try LazyLibraries.gstreamer(file.path)
        self.gst = gst
        // The description names no file: the URI is set as a property below, never parsed.
        let description = "uridecodebin name=source ! videoconvert ! videoscale ! "
            + "video/x-raw,format=BGRx,pixel-aspect-ratio=1/1 ! appsink name=sink sync=false max-buffers=1"
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst.gst_parse_launch(description, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "no pipeline"
            if let error { g_error_free(error) }
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "GStreamer cannot decode video here (\(message); install gstreamer1.0-plugins-base)")
        }
        if let error { g_error_free(error) }
        guard let source = gst.gst_bin_get_by_name(pipeline, "source"), let sink = gst.gst_bin_get_by_name(pipeline, "sink") else {
            g_object_unref(UnsafeMutableRawPointer(pipeline))
            throw DocumentError(kind: .unsupported, path: file.path, reason: "GStreamer's pipeline lacks its elements")
        }
        gst.gst_util_set_object_arg(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GObject.self), "uri", "file://" + file.procPath)
        g_object_unref(UnsafeMutableRawPointer(source))
        self.pipeline = pipeline
        self.sink = sink
        guard gst.gst_element_set_state(pipeline, quire_gst_state_paused) != quire_gst_state_change_failure,
              wait() else {
            // Every stored property is set: deinit runs when this throws, and it stops and
            // releases the pipeline (releasing it here too was a double unref).
            if let reason = busError() { throw DocumentError(kind: .damaged, path: file.path, reason: reason) }
            if unlinked {
                throw DocumentError(kind: .damaged, path: file.path, reason: "it has no video stream that can be decoded")
            }
            if stalled {
                throw DocumentError(kind: .limitExceeded, path: file.path,
                                    reason: "no frame was decoded within the \(Self.prerollTimeout) s time limit")
            }
            throw DocumentError(kind: .damaged, path: file.path, reason: "the video cannot be decoded")
        }
    }

    deinit {
        _ = gst.gst_element_set_state(pipeline, quire_gst_state_null)
        g_object_unref(UnsafeMutableRawPointer(sink))
        g_object_unref(UnsafeMutableRawPointer(pipeline))
    }

    /// Waits for the pipeline to preroll; false on an error or time-out (which marks it stalled).
    /// GStreamer does not always end the wait itself: an error in a streaming thread (a demuxer
    /// that gives up on a damaged header) leaves the state change pending, now and then, and a
    /// file whose decoded pads cannot reach the sink never prerolls and posts only a warning. So
    /// the wait reads the bus in short steps and ends at either message.
    private func wait() -> Bool {
        let deadline = ContinuousClock.now + .seconds(Int64(Self.prerollTimeout))
        var state: Int32 = 0
        while true {
            let result = gst.gst_element_get_state(pipeline, &state, nil, quire_gst_second / 20)
            if result == quire_gst_state_change_success || result == quire_gst_state_change_no_preroll { return true }
            if result == quire_gst_state_change_failure { return false }
            readBus()
            if postedError != nil || unlinked { return false }
            if ContinuousClock.now >= deadline { stalled = true; return false }
        }
    }

    /// Set when the decoder's video could not be linked to the sink (see ``wait()``).
    private(set) var unlinked = false
    /// The first error GStreamer posted, as one line.
    private var postedError: String?

    /// Takes the errors and warnings GStreamer has posted: keeps the first error, and notes the
    /// warning that the decoded video could not be linked (`GST_PARSE_ERROR_DELAYED_LINK`). One
    /// pop for both kinds: `gst_bus_pop_filtered` discards every message it passes over.
    private func readBus() {
        guard let bus = gst.gst_element_get_bus(pipeline) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        while let message = gst.gst_bus_pop_filtered(bus, quire_gst_message_error | quire_gst_message_warning) {
            defer { gst.gst_mini_object_unref(message) }
            let isError = gst.gst_message_get_structure(message)
                .flatMap { gst.gst_structure_get_name($0) }
                .map { String(cString: $0) == "GstMessageError" } ?? false
            var error: UnsafeMutablePointer<GError>?
            if isError {
                gst.gst_message_parse_error(message, &error, nil)
            } else {
                gst.gst_message_parse_warning(message, &error, nil)
            }
            defer { if let error { g_error_free(error) } }
            guard let error else { continue }
            if isError {
                if postedError == nil { postedError = String(cString: error.pointee.message) }
            } else if error.pointee.domain == gst.gst_parse_error_quark(), error.pointee.code == quire_gst_parse_error_delayed_link {
                unlinked = true
            }
        }
    }

    /// The first error GStreamer posted, as one line.
    private func busError() -> String? {
        readBus()
        return postedError
    }

    /// The length in seconds, as the pipeline knows it (nil when it does not).
    var duration: Double? {
        var nanoseconds: Int64 = 0
        guard gst.gst_element_query_duration(pipeline, quire_gst_format_time, &nanoseconds) != 0, nanoseconds > 0 else { return nil }
        return Double(nanoseconds) / Double(quire_gst_second)
    }

    /// The frame at `seconds` (the one shown there: an accurate seek), or nil when there is none.
    func frame(at seconds: Double, accurate: Bool = true) throws(DocumentError) -> CairoImage? {
        guard !stalled else { return nil }
        let position = Int64(max(0, seconds) * Double(quire_gst_second))
        guard gst.gst_element_seek_simple(pipeline, quire_gst_format_time,
                                          accurate ? quire_gst_seek_flush_accurate : quire_gst_seek_flush_key_unit,
                                          position) != 0, wait() else { return nil }
        // The pipeline has prerolled, so the sink holds the frame (or the end of the stream)
        // already: a short wait. Now and then, after a seek in a truncated WebM, it holds
        // neither and never will (1 start in 30 of a fuzzed file).
        let asked = ContinuousClock.now
        guard let sample = gst.gst_app_sink_try_pull_preroll(sink, Self.prerolledPullTimeout * quire_gst_second) else {
            // Nil at once is the end of the stream; nil after the whole wait is a stuck pipeline.
            if ContinuousClock.now - asked >= .seconds(Int64(Self.prerolledPullTimeout)) - .milliseconds(100) { stalled = true }
            return nil
        }
        defer { gst.gst_mini_object_unref(sample) }
        guard let caps = gst.gst_sample_get_caps(sample), let structure = gst.gst_caps_get_structure(caps, 0),
              let buffer = gst.gst_sample_get_buffer(sample) else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        guard gst.gst_structure_get_int(structure, "width", &width) != 0, gst.gst_structure_get_int(structure, "height", &height) != 0,
              width > 0, height > 0 else { return nil }
        guard Int(width) * Int(height) <= maximumPixels else {
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "the video is \(width)×\(height) pixels, more than the limit of \(maximumPixels)")
        }
        var map = quire_gst_map_info()
        guard gst.gst_buffer_map(buffer, &map, quire_gst_map_read) != 0 else { return nil }
        defer { gst.gst_buffer_unmap(buffer, &map) }
        let stride = (Int(width) * 4 + 3) & ~3
        guard let data = map.data, map.size >= stride * Int(height) else { return nil }
        return try CairoImage(copyingBGRx: UnsafeRawPointer(data), width: Int(width), height: Int(height), stride: stride, path: path)
    }
}
