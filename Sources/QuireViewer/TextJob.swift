import QuireRenderService

/// One page's text with its character boxes, wanted for selecting and copying.
public struct TextJob: Sendable, Hashable {
    /// The model's file index.
    public let file: Int
    public let page: Int
    let document: QuireRenderService.DocumentRequest

    var request: PageRequest { PageRequest(document: document, page: page, width: 1, height: 1) }
}
