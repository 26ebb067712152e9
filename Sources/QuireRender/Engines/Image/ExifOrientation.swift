/// Reads the EXIF orientation tag (0x0112) from the start of a JPEG or TIFF file, so that the
/// upright size is known before decoding. gdk-pixbuf applies the rotation itself
/// (`gdk_pixbuf_apply_embedded_orientation`); this only tells whether width and height swap.
enum ExifOrientation {
    /// 1…8 as in the EXIF specification; 1 (upright) when absent or unreadable.
    static func read(_ bytes: [UInt8]) -> Int {
        guard let exif = ExifTIFF(fileStart: bytes), let ifd = exif.firstIFD,
              let entry = exif.entries(at: ifd).first(where: { $0.tag == 0x0112 && $0.type == 3 }),
              let value = exif.integer(entry), (1...8).contains(value) else { return 1 }
        return value
    }

    /// Whether an orientation swaps width and height (the four transposing ones).
    static func swapsAxes(_ orientation: Int) -> Bool { (5...8).contains(orientation) }
}
