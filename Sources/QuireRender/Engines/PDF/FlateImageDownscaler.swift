internal import CZlib

/// Reduces a PDF image stream compressed with `/FlateDecode` (8 bits per component, gray or RGB,
/// optionally PNG-predicted) straight to thumbnail size while inflating it row by row: no
/// full-size buffer is ever made. poppler decodes such an image at full size before its backend
/// scales it (a 5000×5000 RGB page: ~0.6–0.9 s and ~100 MB); this reads each row once.
///
/// Each output pixel is the mean of the source pixels whose centres fall in it (a box filter),
/// which is what a renderer's downscale converges to when the image is at least twice the
/// output size — callers use it only then. For the batch thumbnailer's scanned-page path
/// (QuireThumbnails), hence `package`.
package enum FlateImageDownscaler {
    /// The image's stream as stored (still compressed) and how to read it.
    package struct Source: Sendable {
        package var compressed: [UInt8]
        package var width: Int
        package var height: Int
        /// 1 (gray) or 3 (RGB).
        package var components: Int
        /// `/DecodeParms /Predictor`: 1 (none) or 10–15 (PNG filters, one filter byte per row).
        package var predictor: Int

        package init(compressed: [UInt8], width: Int, height: Int, components: Int, predictor: Int) {
            self.compressed = compressed
            self.width = width
            self.height = height
            self.components = components
            self.predictor = predictor
        }
    }

    /// Largest image side accepted (anything beyond goes to poppler, which has its own limits).
    static let maximumSide = 1 << 16

    /// The image reduced to exactly `width`×`height`, opaque RGBA; nil when the parameters are
    /// unsupported, the output is not smaller than the image, or the data is damaged or short
    /// (the caller then renders the page with poppler, which reports or tolerates the damage).
    package static func downscale(_ source: Source, width: Int, height: Int) -> RenderedImage? {
        let components = source.components
        guard components == 1 || components == 3, source.predictor == 1 || (10...15).contains(source.predictor),
              source.width > 0, source.height > 0, source.width <= maximumSide, source.height <= maximumSide,
              width > 0, height > 0, width <= source.width, height <= source.height,
              !source.compressed.isEmpty,
              // The sums are 32-bit: at most 255 × (pixels per output pixel) must fit.
              (source.width / width + 1) * (source.height / height + 1) < 16_000_000 else { return nil }
        let predicted = source.predictor >= 10
        let rowBytes = source.width * components
        let storedRow = rowBytes + (predicted ? 1 : 0)

        // Output column x takes source columns firstColumn[x]..<firstColumn[x + 1] (source column
        // c falls in output column c * width / source.width); rows likewise.
        var firstColumn = [Int](repeating: source.width, count: width + 1)
        for column in stride(from: source.width - 1, through: 0, by: -1) { firstColumn[column * width / source.width] = column }
        let columnCount = (0..<width).map { UInt32(firstColumn[$0 + 1] - firstColumn[$0]) }
        var rowCount = [UInt32](repeating: 0, count: height)
        for y in 0..<source.height { rowCount[y * height / source.height] += 1 }

        // A zlib stream: its 2-byte header is checked here and the deflate data inflated raw,
        // which skips the Adler-32 check of the whole image (a fifth of the time; poppler does
        // not check it either).
        let header = source.compressed
        guard header.count > 2, header[0] & 0x0F == 8, header[0] >> 4 <= 7, (Int(header[0]) << 8 | Int(header[1])) % 31 == 0,
              header[1] & 0x20 == 0 else { return nil }
        var stream = z_stream()
        guard quire_inflate_init_raw(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }

        var current = [UInt8](repeating: 0, count: storedRow)
        var previous = [UInt8](repeating: 0, count: storedRow)  // the row above the first is zeros
        var sums = [UInt32](repeating: 0, count: width * components)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var outputRow = 0
        var finished = false

        let complete: Bool = source.compressed.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + 2)
            stream.avail_in = uInt(input.count - 2)
            for y in 0..<source.height {
                // Inflate one stored row.
                let filled = current.withUnsafeMutableBufferPointer { row -> Bool in
                    stream.next_out = row.baseAddress!
                    stream.avail_out = uInt(storedRow)
                    while stream.avail_out > 0 {
                        if finished { return false }
                        let status = inflate(&stream, Z_NO_FLUSH)
                        if status == Z_STREAM_END { finished = true; continue }
                        guard status == Z_OK else { return false }
                    }
                    return true
                }
                guard filled else { return false }
                if predicted {
                    guard Self.unfilter(&current, previous: previous, bytesPerPixel: components) else { return false }
                }
                // Add the row into its output row's column sums.
                current.withUnsafeBufferPointer { row in
                    sums.withUnsafeMutableBufferPointer { sum in
                        firstColumn.withUnsafeBufferPointer { first in
                            let data = row.baseAddress! + (predicted ? 1 : 0)
                            for x in 0..<width {
                                let start = first[x], end = first[x + 1]
                                if components == 3 {
                                    var red: UInt32 = 0, green: UInt32 = 0, blue: UInt32 = 0
                                    var from = start * 3
                                    for _ in start..<end {
                                        red &+= UInt32(data[from]); green &+= UInt32(data[from + 1]); blue &+= UInt32(data[from + 2])
                                        from += 3
                                    }
                                    sum[x * 3] &+= red; sum[x * 3 + 1] &+= green; sum[x * 3 + 2] &+= blue
                                } else {
                                    var gray: UInt32 = 0
                                    for from in start..<end { gray &+= UInt32(data[from]) }
                                    sum[x] &+= gray
                                }
                            }
                        }
                    }
                }
                if predicted { swap(&current, &previous) }
                // The last source row of an output row: write its means.
                let row = y * height / source.height
                if y + 1 == source.height || (y + 1) * height / source.height != row {
                    Self.emit(sums: &sums, row: row, width: width, components: components,
                              columnCount: columnCount, rows: rowCount[row], into: &pixels)
                    outputRow = row + 1
                }
            }
            return true
        }
        guard complete, outputRow == height else { return nil }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    /// Writes one output row of means (RGBA, opaque) and clears the sums.
    private static func emit(sums: inout [UInt32], row: Int, width: Int, components: Int,
                             columnCount: [UInt32], rows: UInt32, into pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { sum in
                for x in 0..<width {
                    let count = columnCount[x] * rows
                    let half = count / 2
                    let to = (row * width + x) * 4
                    if components == 3 {
                        out[to] = UInt8((sum[x * 3] + half) / count)
                        out[to + 1] = UInt8((sum[x * 3 + 1] + half) / count)
                        out[to + 2] = UInt8((sum[x * 3 + 2] + half) / count)
                    } else {
                        let gray = UInt8((sum[x] + half) / count)
                        out[to] = gray; out[to + 1] = gray; out[to + 2] = gray
                    }
                }
                sum.update(repeating: 0)
            }
        }
    }

    /// Undoes a PNG row filter in place (`row[0]` is the filter type); false for an unknown type.
    static func unfilter(_ row: inout [UInt8], previous: [UInt8], bytesPerPixel bpp: Int) -> Bool {
        let count = row.count
        return row.withUnsafeMutableBufferPointer { line in
            previous.withUnsafeBufferPointer { above in
                switch line[0] {
                case 0:
                    return true
                case 1:  // Sub
                    if count > 1 + bpp { for i in (1 + bpp)..<count { line[i] = line[i] &+ line[i - bpp] } }
                case 2:  // Up
                    for i in 1..<count { line[i] = line[i] &+ above[i] }
                case 3:  // Average
                    for i in 1..<count {
                        let left = i > bpp ? Int(line[i - bpp]) : 0
                        line[i] = line[i] &+ UInt8((left + Int(above[i])) / 2)
                    }
                case 4:  // Paeth
                    for i in 1..<count {
                        let a = i > bpp ? Int(line[i - bpp]) : 0, b = Int(above[i]), c = i > bpp ? Int(above[i - bpp]) : 0
                        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                        line[i] = line[i] &+ UInt8(pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
                    }
                default:
                    return false
                }
                return true
            }
        }
    }
}
