internal import CNSS

/// A SHA-256 digest computed by NSS (its HASHContext, destroyed on deinit).
final class SHA256Digest {
    private let api: quire_nss_api
    private let context: OpaquePointer

    init(_ database: CertificateDatabase) throws(SigningError) {
        api = database.api
        guard let made = api.HASH_Create(Int32(QUIRE_HASH_ALG_SHA256)) else {
            let error = database.lastError()
            throw SigningError(.signing, "NSS cannot compute SHA-256", code: error.code, codeName: error.name)
        }
        context = made
        api.HASH_Begin(context)
    }

    deinit { api.HASH_Destroy(context) }

    func update(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { api.HASH_Update(context, $0.baseAddress!, UInt32($0.count)) }
    }

    func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        api.HASH_End(context, &out, &length, 32)
        return Array(out.prefix(Int(length)))
    }
}
