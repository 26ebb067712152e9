internal import CNSS

/// A certificate from a ``CertificateDatabase`` (NSS's CERTCertificate, released on deinit).
public final class SigningCertificate {
    let handle: OpaquePointer
    public let nickname: String
    let database: CertificateDatabase

    init(_ handle: OpaquePointer, nickname: String, database: CertificateDatabase) {
        self.handle = handle
        self.nickname = nickname
        self.database = database
    }

    deinit { database.api.CERT_DestroyCertificate(handle) }

    /// The subject as NSS writes it ("CN=Ada Lovelace,O=Example").
    public var subject: String {
        let head = UnsafeRawPointer(handle).assumingMemoryBound(to: quire_nss_certificate_head.self)
        return head.pointee.subjectName.map { String(cString: $0) } ?? ""
    }

    /// Who the certificate names: its common name, or the nickname when it has none.
    public var commonName: String {
        SigningCertificate.commonName(inSubject: subject) ?? nickname
    }

    /// The CN attribute of an RFC 1485 name ("CN=Ada,O=Example" → "Ada"; backslash escapes and
    /// quoted values read as such); nil when there is none.
    public static func commonName(inSubject subject: String) -> String? {
        var parts: [String] = []
        var current = "", quoted = false, escaped = false
        for character in subject {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if (character == "," || character == ";" || character == "+") && !quoted {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        for part in parts {
            let trimmed = part.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            if trimmed[..<equals].uppercased() == "CN" {
                let value = String(trimmed[trimmed.index(after: equals)...])
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}
