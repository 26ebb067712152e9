import Foundation

/// Small, valid PDFs written by hand, so tests know exactly how many pages they have.
public enum TestPDF {
    /// A PDF with `pages` A4 pages, each showing "Page N".
    public static func make(pages: Int) -> [UInt8] {
        var objects: [String] = []
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<pages).map { "\(3 + $0 * 2) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pages) >>")
        let font = 3 + pages * 2
        for index in 0..<pages {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents \(4 + index * 2) 0 R /Resources << /Font << /F1 \(font) 0 R >> >> >>")
            let stream = "BT /F1 48 Tf 100 700 Td (Page \(index + 1)) Tj ET"
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        var out = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets {
            out += Array((String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n").utf8)
        }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// Writes a PDF with `pages` pages to `path`.
    public static func write(pages: Int, to path: String) throws {
        try Data(make(pages: pages)).write(to: URL(fileURLWithPath: path))
    }
}
