#if canImport(Glibc)
import Glibc
#endif
internal import CGStreamer
import QuireTypes
import QuireSystem

/// An audio file's waveform: the loudest sample in each of `buckets` equal slices of its
/// duration (0…1), from the sound decoded by GStreamer as 4 kHz mono (`uridecodebin` →
/// `audioconvert` → `audioresample` → `appsink`), within a time budget.
///
/// A song is decoded whole (``read(_:duration:buckets:budget:)``). A long file — a podcast, an
/// audio book, a 10-hour recording — is *sampled* (``sample(_:duration:buckets:budget:)``):
/// a seek into each slice and a quarter of a second decoded there, so its cost grows with the
/// number of slices, not with the length. A file not read within the budget has no waveform,
/// never part of one, and ``waveform(_:duration:buckets:budget:)`` says why.
enum AudioPeaks {
    static let rate = 4000
    /// Files up to this long (seconds) are decoded whole; longer ones are sampled.
    static let wholeDecodeLimit = 300.0
    /// Seconds of sound decoded in each slice of a sampled file.
    static let sampleWindow = 0.25

    /// A waveform, or the one-line reason the card gives instead.
    enum Outcome: Equatable {
        case peaks([Double])
        case missing(String)

        var peaks: [Double]? {
            if case .peaks(let peaks) = self { return peaks }
            return nil
        }
        var reason: String? {
            if case .missing(let reason) = self { return reason }
            return nil
        }
    }

    /// The waveform of a file `duration` seconds long: decoded whole when it is short (sampled
    /// when that did not finish in time), sampled when it is long.
    static func waveform(_ file: InputFile, duration: Double, buckets: Int, budget: Double) -> Outcome {
        if duration <= wholeDecodeLimit, let peaks = read(file, duration: duration, buckets: buckets, budget: budget) {
            return .peaks(peaks)
        }
        return sample(file, duration: duration, buckets: buckets, budget: budget)
    }

    /// The pipeline, its sink, and the API; nil when GStreamer cannot build it.
    private static func pipeline(_ file: InputFile, maxBuffers: Int?) -> (quire_gstreamer_api, OpaquePointer, OpaquePointer)? {
        guard let gst = try? LazyLibraries.gstreamer(file.path) else { return nil }
        let description = "uridecodebin name=source ! audioconvert ! audioresample ! "
            + "audio/x-raw,format=S16LE,channels=1,rate=\(rate) ! appsink name=sink sync=false"
            + (maxBuffers.map { " max-buffers=\($0)" } ?? "")
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst.gst_parse_launch(description, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        if let error { g_error_free(error) }
        guard let source = gst.gst_bin_get_by_name(pipeline, "source") else {
            g_object_unref(UnsafeMutableRawPointer(pipeline))
            return nil
        }
        guard let sink = gst.gst_bin_get_by_name(pipeline, "sink") else {
            g_object_unref(UnsafeMutableRawPointer(source))
            g_object_unref(UnsafeMutableRawPointer(pipeline))
            return nil
        }
        // The URI is a property, never part of the parsed description.
        gst.gst_util_set_object_arg(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GObject.self), "uri", "file://" + file.procPath)
        g_object_unref(UnsafeMutableRawPointer(source))
        return (gst, pipeline, sink)
    }

    private static func close(_ gst: quire_gstreamer_api, _ pipeline: OpaquePointer, _ sink: OpaquePointer) {
        _ = gst.gst_element_set_state(pipeline, quire_gst_state_null)
        g_object_unref(UnsafeMutableRawPointer(sink))
        g_object_unref(UnsafeMutableRawPointer(pipeline))
    }

    /// Calls `body` with each pulled sample's 16-bit mono samples, until it returns false, the
    /// stream ends, or `deadline` passes (then false).
    private static func pull(_ gst: quire_gstreamer_api, _ sink: OpaquePointer, until deadline: Deadline,
                             _ body: (UnsafeBufferPointer<Int16>) -> Bool) -> Bool {
        while gst.gst_app_sink_is_eos(sink) == 0 {
            guard !deadline.hasPassed else { return false }
            let wait = UInt64(min(250, max(1, deadline.remainingMilliseconds()))) * (quire_gst_second / 1000)
            guard let sample = gst.gst_app_sink_try_pull_sample(sink, wait) else { continue }
            defer { gst.gst_mini_object_unref(sample) }
            guard let buffer = gst.gst_sample_get_buffer(sample) else { continue }
            var map = quire_gst_map_info()
            guard gst.gst_buffer_map(buffer, &map, quire_gst_map_read) != 0 else { continue }
            defer { gst.gst_buffer_unmap(buffer, &map) }
            guard let data = map.data else { continue }
            let more = UnsafeRawPointer(data).withMemoryRebound(to: Int16.self, capacity: map.size / 2) { samples in
                body(UnsafeBufferPointer(start: samples, count: map.size / 2))
            }
            if !more { return true }
        }
        return true
    }

    /// The whole sound decoded (nil when it did not finish within `budget` seconds).
    static func read(_ file: InputFile, duration: Double, buckets: Int, budget: Double) -> [Double]? {
        guard duration > 0, buckets > 0, let (gst, pipeline, sink) = pipeline(file, maxBuffers: nil) else { return nil }
        defer { close(gst, pipeline, sink) }
        guard gst.gst_element_set_state(pipeline, quire_gst_state_playing) != quire_gst_state_change_failure else { return nil }
        var peaks = [Double](repeating: 0, count: buckets)
        let expected = max(1, duration * Double(rate))
        var position = 0
        let finished = pull(gst, sink, until: Deadline(seconds: budget)) { samples in
            for index in samples.indices {
                let bucket = min(buckets - 1, Int(Double(position + index) / expected * Double(buckets)))
                let level = Double(abs(Int(samples[index]))) / 32768
                if level > peaks[bucket] { peaks[bucket] = level }
            }
            position += samples.count
            return true
        }
        return finished && position > 0 ? peaks : nil
    }

    /// The sound sampled: for each slice, a seek to its middle and ``sampleWindow`` seconds
    /// decoded there; the reason when a seek fails or it did not finish within `budget` seconds.
    static func sample(_ file: InputFile, duration: Double, buckets: Int, budget: Double) -> Outcome {
        let seconds = budget == budget.rounded() ? "\(Int(budget)) s" : "\(budget) s"
        let late = Outcome.missing("No waveform: the sound could not be read in \(seconds)")
        guard duration > 0, buckets > 0, let (gst, pipeline, sink) = pipeline(file, maxBuffers: 4) else {
            return .missing("No waveform: GStreamer cannot decode the sound")
        }
        defer { close(gst, pipeline, sink) }
        let deadline = Deadline(seconds: budget)
        // Prerolled first (a seek needs the streams known), then playing: each seek flushes what
        // was decoded ahead, and the small queue (max-buffers) stops decoding running on.
        for state in [quire_gst_state_paused, quire_gst_state_playing] {
            guard gst.gst_element_set_state(pipeline, state) != quire_gst_state_change_failure else {
                return .missing("No waveform: GStreamer cannot decode the sound")
            }
            let wait = UInt64(max(1, deadline.remainingMilliseconds())) * (quire_gst_second / 1000)
            switch gst.gst_element_get_state(pipeline, nil, nil, wait) {
            case quire_gst_state_change_success, quire_gst_state_change_no_preroll: continue
            case quire_gst_state_change_failure: return .missing("No waveform: GStreamer cannot decode the sound")
            default: return late
            }
        }
        let slice = duration / Double(buckets)
        let window = max(1, Int(min(sampleWindow, slice) * Double(rate)))
        var peaks = [Double](repeating: 0, count: buckets)
        for bucket in 0..<buckets {
            let start = max(0, (Double(bucket) + 0.5) * slice - min(sampleWindow, slice) / 2)
            guard !deadline.hasPassed else { return late }
            guard gst.gst_element_seek_simple(pipeline, quire_gst_format_time, quire_gst_seek_flush_key_unit,
                                              Int64(start * Double(quire_gst_second))) != 0
            else { return .missing("No waveform: the file cannot be sought, and it is too long to decode whole") }
            var taken = 0
            let finished = pull(gst, sink, until: deadline) { samples in
                for value in samples.prefix(window - taken) {
                    let level = Double(abs(Int(value))) / 32768
                    if level > peaks[bucket] { peaks[bucket] = level }
                }
                taken += samples.count
                return taken < window
            }
            guard finished else { return late }
        }
        return .peaks(peaks)
    }
}
