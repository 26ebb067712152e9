#if canImport(Glibc)
import Glibc
#endif
internal import CNSS

/// An NSS certificate and key database (the `sql:` kind Firefox, Thunderbird, Okular and
/// `certutil` use; `~/.pki/nssdb` by default), opened read-only for signing. NSS keeps one
/// database per process: open one at a time. The password, when the key database has one, is
/// given once here and answered each time NSS asks.
public final class CertificateDatabase {
    let api: quire_nss_api
    private let context: OpaquePointer
    /// What NSS's password callback answers from (the password given) and records (that NSS asked).
    let passwordRequest: UnsafeMutablePointer<quire_nss_password_request>
    public let directory: String

    /// `~/.pki/nssdb`, or nil without a home.
    public static var defaultDirectory: String? {
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.pki/nssdb"
    }

    public init(directory: String, password: String?) throws(SigningError) {
        guard let loaded = quire_nss_api_load()?.pointee else {
            throw SigningError(.unavailable, "NSS is not installed (install libnss3)")
        }
        api = loaded
        self.directory = directory
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw SigningError(.database, "no certificate database at \(directory) (make one with certutil -N -d sql:\(directory), "
                               + "or import a certificate with pk12util)")
        }
        guard access(directory + "/cert9.db", R_OK) == 0, access(directory + "/key4.db", R_OK) == 0 else {
            throw SigningError(.database, "\(directory) holds no readable NSS database (cert9.db and key4.db)")
        }
        guard let made = loaded.NSS_InitContext("sql:" + directory, "", "", "", nil,
                                                UInt32(QUIRE_NSS_INIT_READONLY | QUIRE_NSS_INIT_NOROOTINIT)) else {
            let code = loaded.PORT_GetError()
            throw SigningError(.database, "cannot open the certificate database at \(directory)", code: code,
                               codeName: loaded.PR_ErrorToName(code).map { String(cString: $0) })
        }
        context = made
        passwordRequest = .allocate(capacity: 1)
        passwordRequest.initialize(to: quire_nss_password_request(password: password.map { UnsafePointer(strdup($0)) }, asked: 0))
        loaded.PK11_SetPasswordFunc(quire_nss_password)
    }

    deinit {
        if let password = passwordRequest.pointee.password { free(UnsafeMutableRawPointer(mutating: password)) }
        passwordRequest.deallocate()
        _ = api.NSS_ShutdownContext(context)
    }

    /// The nicknames of the certificates that have a private key here (those that can sign).
    public func nicknames() -> [String] {
        guard let list = api.CERT_GetCertNicknames(api.CERT_GetDefaultCertDB(), Int32(QUIRE_SEC_CERT_NICKNAMES_USER),
                                                   passwordRequest) else { return [] }
        defer { api.CERT_FreeNicknames(list) }
        var names: [String] = []
        for index in 0..<Int(max(0, list.pointee.numnicknames)) {
            if let name = list.pointee.nicknames?[index] { names.append(String(cString: name)) }
        }
        return names.sorted()
    }

    /// The certificate called `nickname`.
    public func certificate(_ nickname: String) throws(SigningError) -> SigningCertificate {
        guard let found = api.PK11_FindCertFromNickname(nickname, passwordRequest) else {
            let known = nicknames()
            throw SigningError(.certificate, "no certificate called \(nickname) in \(directory) ("
                               + (known.isEmpty ? "it has no certificate with a private key" : "it has: " + known.joined(separator: ", ")) + ")")
        }
        return SigningCertificate(found, nickname: nickname, database: self)
    }

    /// NSS's last error, as SigningError's code and name.
    func lastError() -> (code: Int32, name: String?) {
        let code = api.PORT_GetError()
        return (code, api.PR_ErrorToName(code).map { String(cString: $0) })
    }
}
