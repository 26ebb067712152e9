import Quire

/// A Jupyter notebook in `info --json`: its kernel, language, cells by kind and image outputs.
struct NotebookRecord: Encodable {
    var kernel: String?
    var language: String?
    var cells: [String: Int]
    var images: Int

    init(_ summary: NotebookText.Summary) {
        kernel = summary.kernel
        language = summary.language
        cells = summary.cells
        images = summary.images
    }
}
