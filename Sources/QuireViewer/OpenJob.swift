import QuireRenderService

/// A file to open in the render worker: its facts come back to the model.
public struct OpenJob: Sendable, Hashable {
    /// The model's file index.
    public let file: Int
    public let request: DocumentRequest
}
