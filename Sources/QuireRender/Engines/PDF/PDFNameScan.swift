#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import QuireTypes

/// The PDF names the first-page probes look for in a file's plain bytes, found in one pass:
/// `/Image` (followed by a delimiter: the `/ImageB` `/ImageC` `/ImageI` of a `/ProcSet` do not
/// count), `/ShadingType` and `/ObjStm` (whose objects the plain bytes cannot show).
///
/// memchr finds each `/` and the few bytes after it decide: one read of the file through a
/// reused 64 KiB buffer. Each probe used to scan for its own names with memmem and a fresh 1 MiB
/// buffer: 5.7 M instructions of a 774 kB PDF's thumbnail, this 1.2 M.
package struct PDFNameScan: Equatable {
    package var image = false
    package var shadingType = false
    package var objectStream = false

    package init(image: Bool = false, shadingType: Bool = false, objectStream: Bool = false) {
        self.image = image
        self.shadingType = shadingType
        self.objectStream = objectStream
    }

    /// Bytes read at a time; consecutive reads overlap by the longest name and its delimiter.
    package static let chunk = 64 << 10
    static let overlap = 16

    /// Scans `file`; a file that cannot be read counts as naming all three (the probes then
    /// look closer, or poppler reports the problem).
    package init(_ file: InputFile) {
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        var offset: Int64 = 0
        var failed = false
        buffer.withUnsafeMutableBytes { raw in
            while offset < file.size {
                let count: Int
                do { count = try file.read(into: raw, at: offset) } catch {
                    failed = true
                    return
                }
                if count == 0 { return }
                // A name that starts in the last `overlap` bytes before the end of what was read
                // is looked at again from the next read (unless this is the end of the file).
                let atEnd = offset + Int64(count) >= file.size
                let complete = atEnd ? count : max(1, count - Self.overlap)
                scan(UnsafeRawBufferPointer(rebasing: raw[0..<count]), starts: complete)
                if atEnd || (image && shadingType && objectStream) { return }
                offset += Int64(complete)
            }
        }
        if failed { self = PDFNameScan(image: true, shadingType: true, objectStream: true) }
    }

    /// Looks at each "/" before `starts` in `bytes` (the bytes after it may run to the end).
    private mutating func scan(_ bytes: UnsafeRawBufferPointer, starts: Int) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index < starts, let hit = memchr(base + index, Int32(UInt8(ascii: "/")), starts - index) {
            let at = base.distance(to: UnsafeRawPointer(hit))
            index = at + 1
            func matches(_ name: StaticString) -> Bool {
                let length = name.utf8CodeUnitCount
                return at + length <= count && memcmp(base + at, name.utf8Start, length) == 0
            }
            guard at + 1 < count else { continue }
            switch bytes[at + 1] {
            case UInt8(ascii: "I"):
                if !image, matches("/Image"), at + 6 < count, ScannedPageProbe.isDelimiter(bytes[at + 6]) { image = true }
            case UInt8(ascii: "S"):
                if !shadingType, matches("/ShadingType") { shadingType = true }
            case UInt8(ascii: "O"):
                if !objectStream, matches("/ObjStm") { objectStream = true }
            default:
                break
            }
        }
    }
}
