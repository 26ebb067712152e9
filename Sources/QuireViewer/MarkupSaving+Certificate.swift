#if canImport(Glibc)
import Glibc
#endif
import Quire
import QuireRenderService
import QuireSigning
import QuireSystem

/// Markup's Sign with Certificate… (issue 36): the same two steps as `quire sign` — the worker
/// appends the signature field with room for the signature, this process (which alone opens
/// the person's NSS database, `~/.pki/nssdb`) digests the bytes and writes the signature in —
/// then the file is put in place like every other save (Revert takes it back).
extension MarkupSaving {
    /// The nicknames of the certificates in `~/.pki/nssdb` that can sign; empty when there is no
    /// database, no such certificate or no NSS.
    public static func signingCertificates() -> [String] {
        guard let directory = CertificateDatabase.defaultDirectory,
              let database = try? CertificateDatabase(directory: directory, password: nil) else { return [] }
        return database.nicknames()
    }

    /// Signs the file `original` was opened from in place with the certificate `nickname`
    /// (`password`: the key database's, when it has one), the signature shown in `box` on
    /// `page` (the page as shown, points from its top left) with `reason`. Blocking.
    /// `ink`: a hand-drawn signature shown in the box (``SignatureStore/Signature/fitted(in:share:)``).
    public static func sign(page: Int, box: PageAnnotation.Box, ink: [[PageAnnotation.Point]] = [], nickname: String, password: String?, reason: String?,
                            request: DocumentRequest, original: InputFile, worker: WorkerCommand, sandbox: RenderClient.SandboxPolicy,
                            timeout: Double) -> Result<Saved, RenderProblem> {
        guard let directory = CertificateDatabase.defaultDirectory else {
            return .failure(RenderProblem(.unsupported, "no home folder to find ~/.pki/nssdb in"))
        }
        let database: CertificateDatabase
        let certificate: SigningCertificate
        do {
            database = try CertificateDatabase(directory: directory, password: password)
            certificate = try database.certificate(nickname)
        } catch {
            return .failure(RenderProblem(.unsupported, error.message))
        }
        let time = Int64(Glibc.time(nil))
        let field = SignatureField(page: page, box: box, signer: certificate.commonName, reason: reason, time: time, ink: ink)
        return withExtendedLifetime(database) {
            save(DocumentChanges(signature: field), request: request, original: original, worker: worker, sandbox: sandbox,
                 timeout: timeout) { update in
                do { return .success(try PDFSigner.sign(update, original: original, certificate: certificate, time: time)) } catch {
                    return .failure(RenderProblem(.unsupported, (error as? SigningError)?.message ?? "\(error)"))
                }
            }
        }
    }
}
