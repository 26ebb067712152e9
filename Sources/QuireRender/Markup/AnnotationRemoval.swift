/// An annotation already in a PDF to be removed (Markup's Select tool, then Delete): named as
/// listed (``ExistingAnnotation``: page, place in the page's list, kind — the kind checks that
/// the page is still as it was listed). ``PDFDocument/remove(_:)`` removes it.
public struct AnnotationRemoval: Sendable, Hashable {
    public var page: Int
    public var index: Int
    public var kind: String

    public init(page: Int, index: Int, kind: String) {
        self.page = page
        self.index = index
        self.kind = kind
    }
}
