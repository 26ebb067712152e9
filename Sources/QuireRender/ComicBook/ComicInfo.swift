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
        let text = String(decoding: bytes, as: UTF8.self)
        func element(_ name: String) -> String? {
            guard let open = text.firstRange(of: "<\(name)>"),
                  let close = text[open.upperBound...].firstRange(of: "</\(name)>") else { return nil }
            let value = XMLScan.unescape(String(text[open.upperBound..<close.lowerBound]))
            let trimmed = value.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
            return trimmed.isEmpty || trimmed.count > 500 ? nil : String(trimmed)
        }
        title = element("Title")
        series = element("Series")
        number = element("Number")
        volume = element("Volume")
        writer = element("Writer")
        year = element("Year")
    }
}
