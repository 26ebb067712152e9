import QuireRender
import QuireTypes

/// Signs a PDF the worker prepared (``SignatureField``): the update it appended keeps a run of
/// zeros in its signature dictionary's `/Contents`, and `/ByteRange` names every byte of the file
/// but that run. Here, in the process that holds the certificate (the worker never sees a key),
/// those bytes — the original file, read again, then the update — are digested with SHA-256,
/// signed (``DetachedSignature``) and the signature written into the run, in hexadecimal.
public enum PDFSigner {
    public static func sign(_ update: PDFUpdate, original: InputFile, certificate: SigningCertificate,
                            time: Int64) throws(SigningError) -> PDFUpdate {
        guard case .incremental(let size, var appended) = update, size == original.size else {
            throw SigningError(.document, "the PDF could not be saved as an update of itself, so it cannot be signed "
                               + "(its cross-reference table is damaged)")
        }
        let marker = Array("/Type /Sig /ByteRange [0 ".utf8)
        guard let start = lastIndex(of: marker, in: appended),
              let room = SignatureField.placeholder(in: appended, from: start) else {
            throw SigningError(.document, "the saved update has no room for a signature")
        }
        // The byte range the worker wrote must be the one around the room.
        let total = Int(size) + appended.count
        let (open, close) = (Int(size) + room.lowerBound, Int(size) + room.upperBound)
        let rangeText = String(decoding: appended[(start + marker.count)..<room.lowerBound], as: UTF8.self)
        let numbers = rangeText.split(whereSeparator: { $0 == " " || $0 == "]" || $0 == "/" || $0.isLetter }).prefix(3).compactMap { Int($0) }
        guard numbers == [open, close, total - close] else {
            throw SigningError(.document, "the saved update's byte range does not match its signature's room")
        }
        let digest = try SHA256Digest(certificate.database)
        var offset: Int64 = 0
        while offset < size {
            let chunk: [UInt8]
            do { chunk = try original.read(upTo: Int(min(1 << 20, size - offset)), at: offset) } catch {
                throw SigningError(.document, "cannot read the PDF again to sign it: \(error.reason)")
            }
            guard !chunk.isEmpty else { throw SigningError(.document, "the PDF became shorter while it was signed") }
            digest.update(chunk[...])
            offset += Int64(chunk.count)
        }
        digest.update(appended[..<room.lowerBound])
        digest.update(appended[room.upperBound...])
        let signature = try DetachedSignature.make(digest: digest.finish(), certificate: certificate, time: time)
        let hex = Array("0123456789abcdef".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(signature.count * 2)
        for byte in signature {
            encoded.append(hex[Int(byte >> 4)])
            encoded.append(hex[Int(byte & 0xF)])
        }
        guard encoded.count <= room.count - 2 else {
            throw SigningError(.signing, "the signature (\(signature.count) bytes) is larger than the room kept for it "
                               + "(\((room.count - 2) / 2) bytes)")
        }
        appended.replaceSubrange((room.lowerBound + 1)..<(room.lowerBound + 1 + encoded.count), with: encoded)
        return .incremental(originalSize: size, appended: appended)
    }

    private static func lastIndex(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var at = bytes.count - marker.count
        while at >= 0 {
            if bytes[at] == marker[0], bytes[at..<at + marker.count].elementsEqual(marker) { return at }
            at -= 1
        }
        return nil
    }
}
