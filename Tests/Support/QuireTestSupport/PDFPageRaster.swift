import Foundation

/// Page 1 of a PDF as poppler's `pdftoppm` draws it at 72 dpi (one pixel a point), read from its
/// binary PPM: an independent reader's picture of what a document shows.
public struct PDFPageRaster {
    public let width: Int
    public let height: Int
    /// RGB, three bytes a pixel, rows from the top.
    public let pixels: [UInt8]

    /// Renders page 1 of `pdf` into `directory` (a file of its own); nil when pdftoppm fails.
    public init?(_ pdf: String, in directory: String) {
        let prefix = (directory as NSString).appendingPathComponent("render-\(UUID().uuidString)")
        let result = ProcessRunner.run(["/usr/bin/pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-singlefile", pdf, prefix], timeout: 60)
        guard result.status == 0, let data = FileManager.default.contents(atPath: prefix + ".ppm") else { return nil }
        let ppm = [UInt8](data)
        // "P6\nWIDTH HEIGHT\n255\n", then the pixels.
        var fields: [String] = [], offset = 0, current = ""
        while fields.count < 4, offset < ppm.count {
            let byte = ppm[offset]
            offset += 1
            if byte == 0x20 || byte == 0x0A {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
              ppm.count - offset >= width * height * 3 else { return nil }
        self.width = width
        self.height = height
        pixels = Array(ppm[offset...])
    }

    /// Pixels in the rectangle (points from the top left, clipped to the page) that `test` accepts.
    public func count(x: Int, y: Int, width: Int, height: Int, where test: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        var count = 0
        let rows = max(0, y)..<max(max(0, y), min(self.height, y + height))
        let columns = max(0, x)..<max(max(0, x), min(self.width, x + width))
        for row in rows {
            for column in columns {
                let at = (row * self.width + column) * 3
                if test(pixels[at], pixels[at + 1], pixels[at + 2]) { count += 1 }
            }
        }
        return count
    }
}
