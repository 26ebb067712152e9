internal import CCairo
internal import CPangoCairo
import QuireTypes

/// An audio file without a cover picture, shown as a card: a note, then its title, artist and
/// album, and the length and format (one square page).
final class AudioCardSource: PageSource {
    let path: DocumentPath
    private let lines: [(text: String, size: Double, bold: Bool)]
    private let pango: quire_pangocairo_api
    /// The loudness across the duration (0…1 per slice), when it was read in time.
    let peaks: [Double]?
    /// Why there is no waveform (drawn where it would be), when there is none.
    let waveformNote: String?

    static let side = 480.0
    var pageCount: Int { 1 }
    var isPaper: Bool { true }

    /// Slices of the waveform, and how long reading the sound for it may take (decoded whole,
    /// or sampled slice by slice for a long file: `AudioPeaks`).
    static let waveformSlices = 208
    static let waveformBudget = 2.0

    init(path: DocumentPath, info: MediaInfo, waveform: AudioPeaks.Outcome? = nil) throws(DocumentError) {
        self.path = path
        peaks = waveform?.peaks
        waveformNote = waveform?.reason
        pango = try LazyLibraries.pango(path)
        var lines: [(String, Double, Bool)] = []
        lines.append((info.title ?? path.displayName, 26, true))
        if let artist = info.artist { lines.append((artist, 18, false)) }
        if let album = info.album {
            lines.append((info.trackNumber.map { "\(album) · track \($0)" } ?? album, 14, false))
        }
        var format: [String] = []
        if let duration = info.duration { format.append(DurationText.clock(duration)) }
        if let codec = info.audioCodec { format.append(codec) }
        if let rate = info.audioBitRate { format.append("\(rate / 1000) kbit/s") }
        if !format.isEmpty { lines.append((format.joined(separator: " · "), 12, false)) }
        self.lines = lines
    }

    func pageSize(at index: Int) -> PageSize { PageSize(width: Self.side, height: Self.side) }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        // A soft band and a note, then the lines centred under it.
        libcairo.cairo_set_source_rgb(cr, 0.93, 0.94, 0.97)
        libcairo.cairo_rectangle(cr, 0, 0, Self.side, Self.side * 0.38)
        libcairo.cairo_fill(cr)
        var y = Self.side * 0.08
        _ = show("♪", size: 110, bold: false, at: y, in: cr, color: (0.35, 0.4, 0.6))
        y = Self.side * 0.44
        for line in lines {
            y += show(line.text, size: line.size, bold: line.bold, at: y, in: cr, color: (0.1, 0.1, 0.1)) + 6
        }
        // The waveform across the bottom: a bar per slice, mirrored about the middle line.
        if let peaks, !peaks.isEmpty {
            let left = 32.0, width = Self.side - 64, middle = Self.side * 0.86, half = Self.side * 0.09
            let step = width / Double(peaks.count)
            libcairo.cairo_set_source_rgb(cr, 0.35, 0.4, 0.6)
            for (index, peak) in peaks.enumerated() {
                let height = max(0.5, min(1, peak) * half)
                libcairo.cairo_rectangle(cr, left + Double(index) * step, middle - height, max(0.5, step * 0.7), height * 2)
            }
            libcairo.cairo_fill(cr)
        } else if let waveformNote {
            _ = show(waveformNote, size: 11, bold: false, at: Self.side * 0.84, in: cr, color: (0.45, 0.45, 0.5))
        }
    }

    private func show(_ text: String, size: Double, bold: Bool, at y: Double, in cr: OpaquePointer,
                      color: (Double, Double, Double)) -> Double {
        guard let layout = pango.pango_cairo_create_layout(cr),
              let font = pango.pango_font_description_from_string("Sans\(bold ? " Bold" : "")") else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)); pango.pango_font_description_free(font) }
        pango.pango_font_description_set_absolute_size(font, size * Double(quire_pango_scale))
        pango.pango_layout_set_font_description(layout, font)
        pango.pango_layout_set_width(layout, Int32((Self.side - 64) * Double(quire_pango_scale)))
        pango.pango_layout_set_wrap(layout, quire_pango_wrap_word_char)
        pango.pango_layout_set_text(layout, text, -1)
        var width: Int32 = 0, height: Int32 = 0
        pango.pango_layout_get_pixel_size(layout, &width, &height)
        libcairo.cairo_set_source_rgb(cr, color.0, color.1, color.2)
        libcairo.cairo_move_to(cr, max(32, (Self.side - Double(width)) / 2), y)
        pango.pango_cairo_show_layout(cr, layout)
        return Double(height)
    }
}
