import QuireTypes

/// What `info` says of a comic book: its page count and what its `ComicInfo.xml` names (title,
/// series, issue number, volume, writer, year). Read from the entries' names and that one file:
/// no page is decoded.
public struct ComicBookSummary: Sendable, Hashable, Codable {
    public var pages: Int
    public var title: String?
    public var series: String?
    public var number: String?
    public var volume: String?
    public var writer: String?
    public var year: String?

    /// - Throws: ``DocumentError`` as opening the book does (damaged, too many entries, no image).
    public static func read(_ file: InputFile, limits: RenderLimits = .standard) throws(DocumentError) -> ComicBookSummary {
        ComicBookSummary(try ComicBookArchive(file: file, limits: limits, readingHeaders: false))
    }

    public init(pages: Int, title: String? = nil, series: String? = nil, number: String? = nil, volume: String? = nil,
                writer: String? = nil, year: String? = nil) {
        self.pages = pages
        self.title = title
        self.series = series
        self.number = number
        self.volume = volume
        self.writer = writer
        self.year = year
    }

    init(_ archive: ComicBookArchive) {
        let info = archive.comicInfo.map(ComicInfo.init)
        self.init(pages: archive.pages.count, title: info?.title, series: info?.series, number: info?.number,
                  volume: info?.volume, writer: info?.writer, year: info?.year)
    }

    /// The book's name for the card's title: its title, else "Series #Number".
    public var displayTitle: String? {
        if let title { return title }
        guard let series else { return nil }
        return number.map { "\(series) #\($0)" } ?? series
    }

    /// The card's lines beyond the title and the page count (the viewers' and `info`'s).
    public var details: [CardRow] {
        var details: [CardRow] = []
        if let series { details.append(CardRow("Series", series + (volume.map { " (volume \($0))" } ?? ""))) }
        if let number { details.append(CardRow("Number", number)) }
        if let writer { details.append(CardRow("Writer", writer)) }
        if let year { details.append(CardRow("Year", year)) }
        return details
    }
}
