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
}
