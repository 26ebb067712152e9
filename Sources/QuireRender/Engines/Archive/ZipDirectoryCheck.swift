import QuireTypes

/// What a zip container's central directory declares, read before LibreOffice is given a
/// zip-based office file (OpenDocument, OOXML, iWork): a file that is no zip at all is refused
/// as damaged, and one whose entries declare more inflated bytes in all than
/// ``RenderLimits/maximumInflatedBytes`` is refused as a zip bomb before the office inflates it.
/// (Entries that lie about their size are bounded by the worker's memory limit and timeout.)
enum ZipDirectoryCheck {
    /// Checks `file`; throws `damaged` or `limitExceeded`.
    static func check(_ file: InputFile, limits: RenderLimits) throws(DocumentError) {
        let size = file.size
        guard size >= 22 else { throw notAZip(file) }
        let tailLength = Int(min(size, 22 + 65_535))
        let tail: [UInt8]
        do { tail = try file.read(upTo: tailLength, at: size - Int64(tailLength)) } catch { throw DocumentError(error) }
        guard let end = lastIndex(of: [0x50, 0x4B, 0x05, 0x06], in: tail) else { throw notAZip(file) }
        guard end + 22 <= tail.count else { throw notAZip(file) }
        let entries = Int(uint16(tail, end + 10))
        let directorySize = Int(uint32(tail, end + 12))
        let directoryOffset = Int64(uint32(tail, end + 16))
        // Zip64 (sizes over 4 GiB): not checked here; the worker's limits still apply.
        if entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF { return }
        guard directoryOffset + Int64(directorySize) <= size, directorySize <= 64 << 20 else { throw notAZip(file) }
        let directory: [UInt8]
        do { directory = try file.read(upTo: directorySize, at: directoryOffset) } catch { throw DocumentError(error) }
        var offset = 0
        var total = 0
        for _ in 0..<entries {
            guard offset + 46 <= directory.count, uint32(directory, offset) == 0x0201_4B50 else { throw notAZip(file) }
            let inflated = Int(uint32(directory, offset + 24))
            if inflated == 0xFFFF_FFFF { return }
            total += inflated
            if total > limits.maximumInflatedBytes {
                throw DocumentError(kind: .limitExceeded, path: file.path,
                                    reason: "zip bomb? the document inflates to " + Limit.inflatedSize.exceeded(limits.maximumInflatedBytes, "bytes"),
                                    remedy: .raise(.inflatedSize))
            }
            offset += 46 + Int(uint16(directory, offset + 28)) + Int(uint16(directory, offset + 30)) + Int(uint16(directory, offset + 32))
        }
    }

    private static func notAZip(_ file: InputFile) -> DocumentError {
        DocumentError(kind: .damaged, path: file.path, reason: "damaged zip container (no readable central directory)")
    }

    private static func lastIndex(of signature: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= signature.count else { return nil }
        var index = bytes.count - 22
        while index >= 0 {
            if bytes[index] == signature[0] && bytes[index + 1] == signature[1]
                && bytes[index + 2] == signature[2] && bytes[index + 3] == signature[3] { return index }
            index -= 1
        }
        return nil
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
