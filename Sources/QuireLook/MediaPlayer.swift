import CGtk

/// Playback of a video or audio file in the window, with GTK's media stream (its GStreamer
/// back end, libgtk-4-media-gstreamer): the frames in a picture, and play/pause, the seek bar,
/// the time and the volume in GtkMediaControls.
///
/// The window itself decodes nothing until Play is pressed: the poster, the frames and the
/// cover come from the sandboxed render worker like every page. Playing is the one exception —
/// GTK decodes in the window's process — so it starts only when the person asks for it.
@MainActor
final class MediaPlayer {
    /// The frames (video): the media stream as the picture's paintable.
    let picture = gtk_picture_new()!
    /// Play/pause, position, time and volume; shown under the preview while a file plays.
    let controls = gtk_media_controls_new(nil)!
    private var stream: UnsafeMutablePointer<GtkMediaStream>?

    /// Where GTK looks for its media back ends (Debian's multiarch path; GTK_PATH is honoured).
    static var isAvailable: Bool {
        let directories = ["/usr/lib/x86_64-linux-gnu/gtk-4.0/4.0.0/media", "/usr/lib/aarch64-linux-gnu/gtk-4.0/4.0.0/media",
                           "/usr/lib64/gtk-4.0/4.0.0/media", "/usr/lib/gtk-4.0/4.0.0/media"]
        return directories.contains { access($0 + "/libmedia-gstreamer.so", R_OK) == 0 }
    }

    init() {
        gtk_picture_set_can_shrink(cast(picture), 1)
        gtk_widget_set_vexpand(picture, 1)
        gtk_widget_set_visible(controls, 0)
        Accessibility.setLabel(picture, "Video")
        Accessibility.setLabel(controls, "Playback")
    }

    var isPlaying: Bool { stream != nil }

    /// Starts playing the file at `path` (its bytes, as any file name may be; its frames in
    /// ``picture`` when it has video).
    func play(path: [UInt8]) {
        stop()
        let file = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { g_file_new_for_path($0.baseAddress!) }
        }
        guard let file else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let made = gtk_media_file_new_for_file(file) else { return }
        let stream = UnsafeMutableRawPointer(made).assumingMemoryBound(to: GtkMediaStream.self)
        self.stream = stream
        gtk_picture_set_paintable(cast(picture), OpaquePointer(made))
        gtk_media_controls_set_media_stream(cast(controls), stream)
        gtk_widget_set_visible(controls, 1)
        gtk_media_stream_play(stream)
    }

    /// Stops and lets the stream go (another file, the window closing).
    func stop() {
        guard let stream else { return }
        gtk_media_stream_pause(stream)
        gtk_media_controls_set_media_stream(cast(controls), nil)
        gtk_picture_set_paintable(cast(picture), nil)
        gtk_widget_set_visible(controls, 0)
        g_object_unref(UnsafeMutableRawPointer(stream))
        self.stream = nil
    }
}
