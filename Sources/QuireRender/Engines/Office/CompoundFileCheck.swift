import QuireTypes

/// A legacy binary Office file (.doc, .xls, .ppt) is an OLE2 compound file: one that starts with
/// the compound-file signature but whose header is not one (a damaged or random file under such
/// a name) is refused as damaged before LibreOffice, which would otherwise import the bytes as
/// plain text and show pages of garbage. Files without the signature (RTF, HTML or text saved
/// under a .doc name) are left to LibreOffice's own type detection.
enum CompoundFileCheck {
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// Whether the file starts with the compound-file signature (an encrypted OOXML file does:
    /// Office's encryption wraps the zip package in a compound file).
    static func hasSignature(_ file: InputFile) -> Bool {
        guard let header = try? file.read(upTo: 8) else { return false }
        return header == signature
    }

    static func check(_ file: InputFile) throws(DocumentError) {
        let header: [UInt8]
        do { header = try file.read(upTo: 512) } catch { throw DocumentError(error) }
        guard header.count >= 8, Array(header[0..<8]) == signature else { return }
        let byteOrderMark = header.count >= 0x20 ? (UInt16(header[0x1C]) | UInt16(header[0x1D]) << 8) : 0
        let sectorShift = header.count >= 0x20 ? (UInt16(header[0x1E]) | UInt16(header[0x1F]) << 8) : 0
        guard header.count == 512, byteOrderMark == 0xFFFE, sectorShift == 9 || sectorShift == 12 else {
            throw DocumentError(kind: .damaged, path: file.path,
                                reason: "damaged compound document (the OLE2 header is not valid)")
        }
    }

    /// Whether the file is a Word 97–2003 document whose File Information Block says it is
    /// encrypted (`fEncrypted`, [MS-DOC] 2.5.2): its `WordDocument` stream is found through the
    /// compound file's directory. LibreOffice 7.4 crashes when LibreOfficeKit reports such a
    /// document's password request (seen: SIGSEGV in the worker, with no password or any
    /// password), so it is refused before the office. False when the file is not one or cannot
    /// be read this far (LibreOffice then decides, as before).
    static func isEncryptedWordDocument(_ file: InputFile) -> Bool {
        guard let header = try? file.read(upTo: 512), header.count == 512,
              Array(header[0..<8]) == signature else { return false }
        let shift = Int(le16(header, 0x1E))
        guard shift == 9 || shift == 12 else { return false }
        let sectorSize = 1 << shift
        let perFATSector = sectorSize / 4
        func sectorOffset(_ sector: UInt32) -> Int64 { (Int64(sector) + 1) << Int64(shift) }
        // The next sector of a chain, from the FAT sectors the header lists (files up to
        // 109 FAT sectors: 7 MB with 512-byte sectors; larger ones are left to LibreOffice).
        func next(_ sector: UInt32) -> UInt32? {
            let index = Int(sector) / perFATSector
            guard index < 109 else { return nil }
            let fatSector = le32(header, 0x4C + 4 * index)
            guard fatSector < 0xFFFF_FFFA,
                  let entry = try? file.read(upTo: 4, at: sectorOffset(fatSector) + Int64(Int(sector) % perFATSector * 4)),
                  entry.count == 4 else { return nil }
            return le32(entry, 0)
        }
        let cutoff = le32(header, 0x38)
        var directorySector = le32(header, 0x30)
        for _ in 0..<512 where directorySector < 0xFFFF_FFFA {
            guard let sector = try? file.read(upTo: sectorSize, at: sectorOffset(directorySector)),
                  sector.count == sectorSize else { return false }
            for start in stride(from: 0, to: sectorSize, by: 128) {
                let entry = Array(sector[start..<start + 128])
                let nameBytes = Int(le16(entry, 0x40))
                guard entry[0x42] == 2, nameBytes == 26 else { continue }   // a stream, 12 UTF-16 units + NUL
                let name = String(decoding: stride(from: 0, to: 24, by: 2).map { UInt16(entry[$0]) | UInt16(entry[$0 + 1]) << 8 }, as: UTF16.self)
                guard name == "WordDocument" else { continue }
                // A WordDocument stream under the mini-stream cutoff is not a real document.
                guard le32(entry, 0x78) >= cutoff,
                      let fib = try? file.read(upTo: 12, at: sectorOffset(le32(entry, 0x74))),
                      fib.count == 12, le16(fib, 0) == 0xA5EC else { return false }
                return le16(fib, 0x0A) & 0x0100 != 0
            }
            guard let following = next(directorySector) else { return false }
            directorySector = following
        }
        return false
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
