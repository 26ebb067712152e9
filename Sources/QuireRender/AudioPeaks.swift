#if canImport(Glibc)
import Glibc
#endif
internal import CGStreamer
import QuireTypes

/// An audio file's waveform: the loudest sample in each of `buckets` equal slices of its
/// duration (0…1), from the sound decoded by GStreamer as 4 kHz mono (`uridecodebin` →
/// `audioconvert` → `audioresample` → `appsink`). Decoding a song takes a moment, so it stops at
/// a time budget: a file not decoded within it has no waveform (nil), never a partial one.
enum AudioPeaks {
    static let rate = 4000

    static func read(_ file: InputFile, duration: Double, buckets: Int, budget: Double) -> [Double]? {
        guard duration > 0, buckets > 0, let gst = try? LazyLibraries.gstreamer(file.path) else { return nil }
        let description = "uridecodebin name=source ! audioconvert ! audioresample ! "
            + "audio/x-raw,format=S16LE,channels=1,rate=\(rate) ! appsink name=sink sync=false"
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst.gst_parse_launch(description, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        if let error { g_error_free(error) }
        defer {
            _ = gst.gst_element_set_state(pipeline, quire_gst_state_null)
            g_object_unref(UnsafeMutableRawPointer(pipeline))
        }
        guard let source = gst.gst_bin_get_by_name(pipeline, "source"), let sink = gst.gst_bin_get_by_name(pipeline, "sink") else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(sink)) }
        // The URI is a property, never part of the parsed description.
        gst.gst_util_set_object_arg(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GObject.self), "uri", "file://" + file.procPath)
        g_object_unref(UnsafeMutableRawPointer(source))
        guard gst.gst_element_set_state(pipeline, quire_gst_state_playing) != quire_gst_state_change_failure else { return nil }
        var peaks = [Double](repeating: 0, count: buckets)
        let expected = max(1, duration * Double(rate))
        var position = 0
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let deadline = now() + budget
        while gst.gst_app_sink_is_eos(sink) == 0 {
            guard now() < deadline else { return nil }
            guard let sample = gst.gst_app_sink_try_pull_sample(sink, quire_gst_second / 4) else {
                if gst.gst_app_sink_is_eos(sink) != 0 { break }
                continue
            }
            defer { gst.gst_mini_object_unref(sample) }
            guard let buffer = gst.gst_sample_get_buffer(sample) else { continue }
            var map = quire_gst_map_info()
            guard gst.gst_buffer_map(buffer, &map, quire_gst_map_read) != 0 else { continue }
            defer { gst.gst_buffer_unmap(buffer, &map) }
            guard let data = map.data else { continue }
            let count = map.size / 2
            UnsafeRawPointer(data).withMemoryRebound(to: Int16.self, capacity: count) { samples in
                for index in 0..<count {
                    let bucket = min(buckets - 1, Int(Double(position + index) / expected * Double(buckets)))
                    let level = Double(abs(Int(samples[index]))) / 32768
                    if level > peaks[bucket] { peaks[bucket] = level }
                }
            }
            position += count
        }
        return position > 0 ? peaks : nil
    }
}
