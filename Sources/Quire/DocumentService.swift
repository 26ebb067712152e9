import QuireRenderService

/// The render service for one ``Document``, in this process: the road `quire`'s one-shot
/// commands and library callers take into the engines (the viewers take a worker's). The
/// document's open file is lent to it, so what was checked is what is read, and its limits and
/// interpreters (``Document/interpreters``) apply.
extension Document {
    /// A client of the service in this process, this document's file lent to it (`software`:
    /// the `Software` key its thumbnails carry).
    public func renderService(software: String = "Quire") -> RenderClient {
        let client = RenderClient(inProcess: limits, interpreters: interpreters, software: software)
        client.lend(file, contentType: contentType)
        return client
    }

    /// This document as the service's requests name it (`password`: an encrypted PDF's;
    /// `layout`: text shown as lines, or laid out on pages as it prints).
    public func renderRequest(password: String? = nil, layout: DocumentRequest.Layout = .view) -> DocumentRequest {
        DocumentRequest(path: path, password: password, maximumFileSize: max(file.size, 1), layout: layout,
                        csvAsSpreadsheet: csvAsSpreadsheet)
    }

    /// The service's problem as this library reports it: the document error it was made from,
    /// or one of the same kind with its words.
    public func error(from problem: RenderProblem) -> DocumentError {
        if let error = problem.documentError { return error }
        let kind: DocumentError.Kind = switch problem.kind {
        case .unreadable: .input
        case .damaged, .workerFailed, .cancelled: .damaged
        case .passwordRequired, .wrongPassword: .passwordRequired
        case .unsupported: .unsupported
        case .limitExceeded: .limitExceeded
        }
        return DocumentError(kind: kind, path: path, reason: problem.message)
    }
}
