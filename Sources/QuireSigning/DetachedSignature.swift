internal import CNSS

/// A detached PKCS#7 (CMS SignedData) signature of a SHA-256 digest, as `/adbe.pkcs7.detached`
/// PDF signatures carry it: the signer's certificate chain, the signing time as a signed
/// attribute, the content itself left out. NSS's CMS encoder asks the key database's password
/// through ``CertificateDatabase``.
enum DetachedSignature {
    static func make(digest: [UInt8], certificate: SigningCertificate, time: Int64) throws(SigningError) -> [UInt8] {
        let database = certificate.database
        let api = database.api
        func failure(_ message: String) -> SigningError {
            let error = database.lastError()
            return SigningError(.signing, message, code: error.code, codeName: error.name)
        }
        guard let message = api.NSS_CMSMessage_Create(nil) else { throw failure("NSS cannot make a CMS message") }
        defer { api.NSS_CMSMessage_Destroy(message) }
        guard let signedData = api.NSS_CMSSignedData_Create(message) else { throw failure("NSS cannot make signed data") }
        guard let outer = api.NSS_CMSMessage_GetContentInfo(message),
              api.NSS_CMSContentInfo_SetContent_SignedData(message, outer, signedData) == Int32(QUIRE_SEC_SUCCESS) else {
            api.NSS_CMSSignedData_Destroy(signedData)
            throw failure("NSS cannot hold the signed data")
        }
        guard let inner = api.NSS_CMSSignedData_GetContentInfo(signedData),
              api.NSS_CMSContentInfo_SetContent_Data(message, inner, nil, 1) == Int32(QUIRE_SEC_SUCCESS) else {
            throw failure("NSS cannot make the content detached")
        }
        guard let signer = api.NSS_CMSSignerInfo_Create(message, certificate.handle, Int32(QUIRE_SEC_OID_SHA256)) else {
            throw failure("NSS cannot sign with \(certificate.nickname)")
        }
        guard api.NSS_CMSSignerInfo_IncludeCerts(signer, Int32(QUIRE_CMS_CERT_CHAIN),
                                                 Int32(QUIRE_CERT_USAGE_EMAIL_SIGNER)) == Int32(QUIRE_SEC_SUCCESS),
              api.NSS_CMSSignerInfo_AddSigningTime(signer, time * 1_000_000) == Int32(QUIRE_SEC_SUCCESS),
              api.NSS_CMSSignedData_AddCertificate(signedData, certificate.handle) == Int32(QUIRE_SEC_SUCCESS),
              api.NSS_CMSSignedData_AddSignerInfo(signedData, signer) == Int32(QUIRE_SEC_SUCCESS) else {
            api.NSS_CMSSignerInfo_Destroy(signer)
            throw failure("NSS cannot add the signer \(certificate.nickname)")
        }
        var digestBytes = digest
        let set = digestBytes.withUnsafeMutableBufferPointer { buffer in
            var item = SECItem(type: 0, data: buffer.baseAddress, len: UInt32(buffer.count))
            return api.NSS_CMSSignedData_SetDigestValue(signedData, Int32(QUIRE_SEC_OID_SHA256), &item)
        }
        guard set == Int32(QUIRE_SEC_SUCCESS) else { throw failure("NSS cannot take the document's digest") }
        guard let arena = api.PORT_NewArena(2048) else { throw failure("NSS cannot allocate") }
        defer { api.PORT_FreeArena(arena, 0) }
        var output = SECItem(type: 0, data: nil, len: 0)
        let request = database.passwordRequest
        request.pointee.asked = 0
        guard let encoder = api.NSS_CMSEncoder_Start(message, nil, nil, &output, arena, quire_nss_password, request, nil, nil, nil, nil) else {
            throw failure("NSS cannot start encoding the signature")
        }
        guard api.NSS_CMSEncoder_Finish(encoder) == Int32(QUIRE_SEC_SUCCESS), let data = output.data, output.len > 0 else {
            let error = database.lastError()
            if request.pointee.asked != 0 {
                let given = request.pointee.password != nil
                throw SigningError(.password, given ? "the password of the key database is not correct"
                                   : "the key database is protected by a password (give it with --password-file)",
                                   code: error.code, codeName: error.name)
            }
            throw SigningError(.signing, "NSS could not sign with \(certificate.nickname)", code: error.code, codeName: error.name)
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(output.len)))
    }
}
