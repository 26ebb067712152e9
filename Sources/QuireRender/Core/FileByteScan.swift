import QuireSystem
import QuireTypes

/// Looks for a byte pattern in a file without reading it whole: 1 MiB chunks that overlap, so a
/// match and the bytes after it that the caller examines are always seen together in one chunk.
enum FileByteScan {
    /// Whether some occurrence of `pattern` in `file` is accepted by `accept`, which gets the
    /// chunk and the offset just past the occurrence (possibly the chunk's end). `overlap` must
    /// cover the pattern and the bytes `accept` reads after it. False when the file cannot be read.
    static func contains(_ pattern: [UInt8], in file: InputFile, overlap: Int,
                         accept: (UnsafeRawBufferPointer, Int) -> Bool) -> Bool {
        let chunk = 1 << 20
        var offset: Int64 = 0
        while offset < file.size {
            guard let bytes = try? file.read(upTo: chunk, at: offset), bytes.count > pattern.count else { return false }
            let found = bytes.withUnsafeBytes { haystack in
                pattern.withUnsafeBytes { needle in
                    var start = 0
                    while let at = MemorySearch.firstOffset(of: needle, in: haystack, from: start) {
                        if accept(haystack, at + needle.count) { return true }
                        start = at + 1
                    }
                    return false
                }
            }
            if found { return true }
            if bytes.count < chunk { return false }
            offset += Int64(chunk - overlap)
        }
        return false
    }
}
