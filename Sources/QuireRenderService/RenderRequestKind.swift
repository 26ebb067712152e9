/// What a request asks of the worker: the first field of every request frame, so one worker
/// and one pipe serve the batch's thumbnails and the viewers' documents alike.
package enum RenderRequestKind: Int64, Sendable, CaseIterable {
    /// Thumbnails of one file (the batch and the thumbnailer service: ``ThumbnailRequest``,
    /// answered by a ``ThumbnailReply``).
    case thumbnail = 1
    /// Open a document: its facts (pages and their sizes, card facts, text) or its problem.
    case open = 2
    /// Render one page of a document at an exact pixel size.
    case page = 3
    /// The text of one page (characters in reading order), for find and copy.
    case text = 4
    /// The document as it prints: its page count, and for content that prints by conversion
    /// (text, images, SVG) the PDF it becomes — so a viewer prints without reading the file.
    case printable = 5
    /// Search a run of pages (or lines of text shown as text) for a word: the matches and
    /// their boxes, and where the scan stopped (``SearchRequest``, answered by a ``SearchChunk``).
    case search = 6
    /// One page's text with a box per character, and whether the document lets it be copied
    /// (``PageText``): selecting and copying text.
    case textLayout = 7
    /// One side of a print job Quire composes (pages placed on sheets: ``SheetRequest``), as
    /// pixels: the print sheet's preview, drawn by the composer that draws the job.
    case composedSide = 8
    /// The whole composed print job as PDF (what a print sheet sends or saves).
    case composedJob = 9
    /// One file entry of an archive, its bytes (bounded by the inflate limit): a viewer opens it
    /// as a file of its own (``RenderRequest/extractEntry(_:entry:)``).
    case extractEntry = 10
    /// An office document converted to PDF by the worker's LibreOffice, the PDF's bytes as
    /// LibreOffice wrote them (answered as ``PrintableDocument/convertedPDF``): `quire`'s
    /// one-shot commands draw and print office files from it, so LibreOffice runs in the
    /// worker's sandbox and not in their own process (``OneShotSandbox``).
    case officePDF = 11
    /// A video or audio file's facts (GStreamer's discoverer), read in the worker's sandbox for
    /// `quire info` (``OneShotSandbox``): the discoverer decodes, and a decoder bomb or exploit
    /// then meets the worker's limits, not the command.
    case mediaInfo = 12
    /// A PDF's form: its fields, their values and choices, whether it is XFA only and whether
    /// its permissions let it be filled (``FormFacts``), for `quire form`.
    case formFields = 13
    /// A document changed as a person asked (``DocumentChanges``: form values), saved by the
    /// worker as an incremental update and answered as its bytes (``PDFUpdate``); the client
    /// puts them in place atomically. The worker never writes the person's files.
    case saveChanges = 14
    /// One frame of an animated image (GIF, WebP) at an exact pixel size (a ``PageRequest``
    /// whose page is the 0-based frame), answered with its size and delay, the RGBA pixels
    /// following the frame as a page's do: a window plays the animation frame by frame.
    case frame = 15
    /// The document written as PDF (chosen pages: a PDF's drawn again, anything else laid out
    /// or placed on pages) or one page as SVG (``RenderRequest/export(_:format:pages:)``),
    /// answered with the file's bytes: `preview --format pdf|svg`, `Document.pdfData`.
    case export = 16
    /// An index sheet: the chosen pages drawn small on one picture with their numbers
    /// (``RenderRequest/contactSheet(_:pages:cellSize:)``): `preview --sheet`.
    case contactSheet = 17
    /// What the info card says of the content (``DocumentInfo/Content``: a PDF's metadata, an
    /// image's pixels and a photo's details, an archive's entries…), read without drawing: the
    /// one road `quire info` takes into the engines, as every other command does.
    case info = 18
}
