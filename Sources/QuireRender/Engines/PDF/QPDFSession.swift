internal import CQPDF

/// One libqpdf handle, set up the one way Quire uses it: quiet (qpdf prints neither its
/// object errors nor its warnings, since every caller has its own answer to a file qpdf finds
/// fault with), and cleaned up when the session goes (its errors taken first).
///
/// The handle is cleaned up in `deinit`, and Swift may end an object's life after its last use
/// rather than at the end of its scope: a caller that goes on with ``api`` and ``qpdf`` keeps
/// the session to the end of the scope (a `defer` that uses it, or `withExtendedLifetime`).
final class QPDFSession {
    /// libqpdf, loaded on first use; nil when it is not installed.
    private static let installed: quire_qpdf_api? = quire_qpdf_api_load()?.pointee

    let api: quire_qpdf_api
    let qpdf: qpdf_data

    /// A new handle; nil when libqpdf is not installed (or gives no handle).
    init?() {
        guard let api = Self.installed, let qpdf = api.qpdf_init() else { return nil }
        self.api = api
        self.qpdf = qpdf
        api.qpdf_silence_errors(qpdf)
        api.qpdf_set_suppress_warnings(qpdf, 1)
    }

    deinit {
        // An error left (a caller that stopped early) would be printed at cleanup as one the
        // application did not handle: nothing of qpdf's reaches the terminal.
        drainErrors()
        var handle: qpdf_data? = qpdf
        api.qpdf_cleanup(&handle)
    }

    /// Reads the PDF at `path`; false when qpdf cannot (its errors are then taken).
    func read(_ path: String, password: String?) -> Bool {
        succeeded(api.qpdf_read(qpdf, path, password))
    }

    /// Reads the PDF in `bytes`; false when qpdf cannot (its errors are then taken).
    func read(_ bytes: [UInt8]) -> Bool {
        let result = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { api.qpdf_read_memory(qpdf, "document", $0.baseAddress, UInt64(buffer.count), nil) }
        }
        return succeeded(result)
    }

    /// Takes the errors qpdf has kept: one still there at cleanup is printed as a warning the
    /// application did not handle.
    func drainErrors() {
        while api.qpdf_has_error(qpdf) != 0 { _ = api.qpdf_get_error(qpdf) }
    }

    private func succeeded(_ result: QPDF_ERROR_CODE) -> Bool {
        guard result & QPDF_ERRORS == 0 else {
            drainErrors()
            return false
        }
        return true
    }
}
