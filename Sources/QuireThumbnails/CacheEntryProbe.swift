#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// The up-to-date check of a batch re-run, made cheap: it is the one cache read per file. Reads
/// the first 4 KiB of a thumbnail (the tEXt keys come before the image data) and compares
/// `Thumb::MTime` and `Thumb::Size` as bytes, with no dictionary or string built per file.
/// Answers nil when the keys are not all found there (keys after the image, a truncated PNG);
/// ``ThumbnailCache`` then reads the whole file the general way.
enum CacheEntryProbe {
    enum Answer {
        case missing
        case current
        case stale
    }

    static let prefix = 4096

    static func state(atBytes path: [UInt8], modificationTime: Int64, size: Int64) -> Answer? {
        let fd = DocumentPath(bytes: path).withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard fd >= 0 else { return .missing }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(byteCount: prefix, alignment: 8) { buffer -> Answer? in
            let count = read(fd, buffer.baseAddress, prefix)
            guard count > 0 else { return .missing }
            return compare(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), modificationTime: modificationTime, size: size)
        }
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let uriKey = Array("Thumb::URI".utf8)
    static let mtimeKey = Array("Thumb::MTime".utf8)
    static let sizeKey = Array("Thumb::Size".utf8)

    /// nil: the prefix does not settle it.
    static func compare(_ bytes: UnsafeRawBufferPointer, modificationTime: Int64, size: Int64) -> Answer? {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(signature) else { return nil }
        var sawURI = false
        var mtime: Int64?
        var recordedSize: Int64?
        var offset = 8
        var reachedImage = false
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = (bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7])
            let start = offset + 8
            if type == (0x49, 0x44, 0x41, 0x54) || type == (0x49, 0x45, 0x4E, 0x44) { reachedImage = true; break }  // IDAT, IEND
            guard length >= 0, start + length <= bytes.count else { break }
            if type == (0x74, 0x45, 0x58, 0x74) {  // tEXt
                let data = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
                if let nul = data.firstIndex(of: 0) {
                    let key = UnsafeRawBufferPointer(rebasing: data[0..<nul])
                    let value = UnsafeRawBufferPointer(rebasing: data[(nul + 1)...])
                    if key.elementsEqual(uriKey) {
                        sawURI = true
                    } else if key.elementsEqual(mtimeKey) {
                        guard let number = integer(value) else { return nil }
                        mtime = number
                    } else if key.elementsEqual(sizeKey) {
                        guard let number = integer(value) else { return nil }
                        recordedSize = number
                    }
                }
            }
            offset = start + length + 4
        }
        // Keys may follow the image data: only a PNG whose keys all precede it is settled here.
        guard reachedImage else { return nil }
        guard sawURI, let mtime else { return .missing }  // not a thumbnail (required keys absent)
        return mtime == modificationTime && (recordedSize == nil || recordedSize == size) ? .current : .stale
    }

    /// A decimal integer (as `Int64("…")` reads it: optional sign, digits only).
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        var negative = false
        if bytes.count > 0 && (bytes[0] == 0x2D || bytes[0] == 0x2B) {
            negative = bytes[0] == 0x2D
            index = 1
        }
        guard index < bytes.count, bytes.count - index <= 18 else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index]
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            value = value * 10 + Int64(digit - 0x30)
            index += 1
        }
        return negative ? -value : value
    }
}
