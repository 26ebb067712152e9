/// What a comic book's `ComicInfo.xml` (the ComicRack schema most comic archives carry) says of
/// it: title, series, issue number, volume, writer, year. Read by a scan of its elements' text
/// (no DTD, no entity beyond XML's own, nothing loaded).
struct ComicInfo: Equatable {
    var title: String?
    var series: String?
    var number: String?
    var volume: String?
    var writer: String?
    var year: String?

    init(_ bytes: [UInt8]) {
        let texts = XMLScan.firstTexts(bytes, of: ["Title", "Series", "Number", "Volume", "Writer", "Year"])
        func field(_ name: String) -> String? { texts[name].flatMap { $0.count > 500 ? nil : $0 } }
        title = field("Title")
        series = field("Series")
        number = field("Number")
        volume = field("Volume")
        writer = field("Writer")
        year = field("Year")
    }
}
