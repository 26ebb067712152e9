import QuireGIO

extension PageTextLayout {
    /// Where `query` occurs in the page's text (literal, ignoring case and accents), each match
    /// as a box per line it covers — for engines whose text layer is words with boxes (DjVu),
    /// where no library searches for them.
    func matches(of query: String) -> [[TextBox]] {
        let needle = TextFolding(query.unicodeScalars).scalars
        return TextFolding(characters).ranges(of: needle).map { range in
            var merged: [TextBox] = []
            for index in range where characters[index] != "\n" {
                let box = boxes[index]
                if var last = merged.last, abs(last.y - box.y) < max(last.height, box.height) / 2 {
                    let maxX = max(last.maxX, box.maxX), maxY = max(last.maxY, box.maxY)
                    last.x = min(last.x, box.x)
                    last.y = min(last.y, box.y)
                    last.width = maxX - last.x
                    last.height = maxY - last.y
                    merged[merged.count - 1] = last
                } else {
                    merged.append(box)
                }
            }
            return merged
        }
    }
}
