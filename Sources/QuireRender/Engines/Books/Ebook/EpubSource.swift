import QuireTypes

extension RenderEngine {
    /// EPUB books: the cover, then the chapters in spine order laid out as Markdown pages are
    /// (``EpubBook``); a thumbnail is the cover alone (the OPF's cover image, read directly).
    static let ebook = RenderEngine(name: "ebook", families: [.ebook]) { (input) throws(DocumentError) in
        if input.preferEmbeddedPreview {
            let (name, bytes) = try ContainerPreview.extract(from: input.file, family: .ebook, limits: input.limits)
            let decoder = ImageDecoder(source: .bytes(bytes, name: name), path: input.file.path, limits: input.limits)
            return Opened(source: try ImageSource(decoder: decoder, header: Array(bytes.prefix(256 * 1024))), embeddedPreviewName: name)
        }
        let book = try EpubBook(file: input.file, limits: input.limits)
        var opened = Opened(source: try MarkdownSource(path: input.file.path, markdown: book.text,
                                                       maximumPages: input.limits.maximumPages, limits: input.limits))
        opened.title = book.text.title
        opened.author = book.author
        opened.details = EbookSummary(book).details
        opened.viewText = book.text.lines.map(\.text)
        opened.markdown = book.text
        opened.contents = book.contents
        return opened
    }
}
