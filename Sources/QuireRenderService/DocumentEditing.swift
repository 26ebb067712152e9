import QuireRender
import QuireTypes

/// The worker's side of changing a document (issue 36): a PDF's form read and filled,
/// annotations added to its pages. The
/// document is opened afresh for each request (never the one a viewer's pages come from), changed
/// in memory, saved by poppler as an incremental update and handed back as bytes; the worker
/// writes no file of the person's.
extension DocumentSession {
    /// The form of the PDF `request` names.
    func formFacts(_ request: DocumentRequest) throws(RenderProblem) -> FormFacts {
        let (file, form) = try openForm(request)
        return Self.facts(form, file: file)
    }

    /// The PDF `request` names with `changes` made, as poppler saves it; or the image it names
    /// turned and cropped, written again whole.
    func save(_ request: DocumentRequest, _ changes: DocumentChanges) throws(RenderProblem) -> PDFUpdate {
        let (file, type) = try input(request)
        if type.family == .image { return try saveImage(file, type: type, changes) }
        let document = try pdf(file, type: type, request)
        if changes.crop != nil { throw RenderProblem(.unsupported, "only an image can be cropped") }
        if !changes.formValues.isEmpty {
            let form = PDFForm(document, file: file, password: request.password)
            let facts = Self.facts(form, file: file)
            if facts.isXFAOnly { throw Self.xfaOnly }
            if let reason = facts.fillingForbidden { throw RenderProblem(.unsupported, reason) }
            for value in changes.formValues {
                do { try form.set(value.name, to: value.value) } catch {
                    throw RenderProblem(.unsupported, error.message)
                }
            }
        }
        // Removed first: their indexes are the page's as it was listed (an added one goes last).
        if !changes.removals.isEmpty {
            if !document.allowsAnnotating {
                throw RenderProblem(.unsupported, "the PDF's permissions do not allow changing its annotations")
            }
            do { try document.remove(changes.removals) } catch {
                throw RenderProblem(.unsupported, error.message)
            }
        }
        if !changes.annotations.isEmpty {
            if !document.allowsAnnotating {
                throw RenderProblem(.unsupported, "the PDF's permissions do not allow adding annotations")
            }
            for annotation in changes.annotations {
                do { try document.add(annotation) } catch { throw RenderProblem(.unsupported, error.message) }
            }
        }
        if !changes.moves.isEmpty, !document.allowsAnnotating {
            throw RenderProblem(.unsupported, "the PDF's permissions do not allow changing its annotations")
        }
        for move in changes.moves where !ExistingAnnotation.isMovable(kind: move.kind) {
            throw RenderProblem(.unsupported, "a \(move.kind) cannot be moved in Markup")
        }
        for move in changes.moves where move.resizes && !ExistingAnnotation.isResizable(kind: move.kind) {
            throw RenderProblem(.unsupported, "a \(move.kind) cannot be resized in Markup")
        }
        if changes.flatten, !changes.annotations.isEmpty || !changes.turns.isEmpty || !changes.removals.isEmpty || !changes.moves.isEmpty {
            throw RenderProblem(.unsupported, "flattening a form goes with its values only, not with annotations or turned pages")
        }
        if changes.flatten {
            let form = PDFForm(document, file: file, password: request.password)
            if Self.facts(form, file: file).isXFAOnly { throw Self.xfaOnly }
            if !form.allowsFilling { throw RenderProblem(.unsupported, "the PDF's permissions do not allow filling in its form") }
        }
        if changes.signature != nil {
            if !changes.formValues.isEmpty || !changes.annotations.isEmpty || !changes.turns.isEmpty || changes.flatten
                || !changes.removals.isEmpty || !changes.moves.isEmpty {
                throw RenderProblem(.unsupported, "a signature is saved alone: save the other changes first")
            }
            if !PDFForm(document, file: file, password: request.password).allowsFilling {
                throw RenderProblem(.unsupported, "the PDF's permissions do not allow signing it")
            }
        }
        if !changes.turns.isEmpty, !document.allowsAssembling {
            throw RenderProblem(.unsupported, "the PDF's permissions do not allow turning its pages")
        }
        do {
            let removed = Dictionary(grouping: changes.removals, by: \.page).mapValues { $0.map(\.index) }
            let moves = changes.moves.filter { move in !(removed[move.page] ?? []).contains(move.index) }
            return try document.savedUpdate(original: file, turns: changes.turns, annotations: changes.annotations, flatten: changes.flatten,
                                            moves: moves, removed: removed, signature: changes.signature)
        } catch {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        }
    }

    static let xfaOnly = RenderProblem(.unsupported, "XFA forms are not supported (this PDF's form is XFA only)")

    private static func facts(_ form: PDFForm, file: InputFile) -> FormFacts {
        let fields = form.fields
        return FormFacts(fields: fields, isXFAOnly: fields.isEmpty && PDFForm.hasXFA(file),
                         fillingForbidden: form.allowsFilling ? nil : "the PDF's permissions do not allow filling in its form")
    }

    private func openForm(_ request: DocumentRequest) throws(RenderProblem) -> (InputFile, PDFForm) {
        let (file, document) = try openDocument(request)
        return (file, PDFForm(document, file: file, password: request.password))
    }

    /// An image turned (`turns[0]`) and cropped: nothing else can be saved into one.
    private func saveImage(_ file: InputFile, type: ContentType, _ changes: DocumentChanges) throws(RenderProblem) -> PDFUpdate {
        if !changes.formValues.isEmpty || changes.flatten || changes.signature != nil {
            throw RenderProblem(.unsupported, "not a PDF (\(type.description)): only a PDF has a form to fill or can be signed", mimeType: type.mimeType)
        }
        if !changes.formValues.isEmpty || !changes.annotations.isEmpty || changes.flatten || !changes.removals.isEmpty
            || !changes.moves.isEmpty || changes.signature != nil || changes.turns.keys.contains(where: { $0 != 0 }) {
            throw RenderProblem(.unsupported, "an image can only be turned and cropped", mimeType: type.mimeType)
        }
        do {
            return .image(try ImageRewriting.rewritten(file, mimeType: type.mimeType, quarterTurns: changes.turns[0] ?? 0,
                                                       crop: changes.crop, limits: limits))
        } catch {
            throw RenderProblem(error, passwordGiven: false)
        }
    }

    private func openDocument(_ request: DocumentRequest) throws(RenderProblem) -> (InputFile, PDFDocument) {
        let (file, type) = try input(request)
        return (file, try pdf(file, type: type, request))
    }

    private func pdf(_ file: InputFile, type: ContentType, _ request: DocumentRequest) throws(RenderProblem) -> PDFDocument {
        guard type.family == .pdf else {
            throw RenderProblem(.unsupported, "not a PDF (\(type.description)): only PDF forms can be filled", mimeType: type.mimeType)
        }
        do {
            return try PDFDocument(file: file, password: request.password)
        } catch {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        }
    }
}
