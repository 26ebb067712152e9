internal import CDjVuLibre

/// A DjVu page's hidden text layer (the OCR text scanned books carry), as DjVuLibre gives it:
/// an s-expression `(page x0 y0 x1 y1 (line … (word x0 y0 x1 y1 "text") …) …)` in page pixels
/// from the bottom-left corner. Made here into words in reading order, each with its box and the
/// line it belongs to, for find, copy and the page's text.
enum DjVuText {
    struct Word: Equatable {
        var text: String
        /// Page pixels, from the bottom-left corner (DjVu's own).
        var x0: Int, y0: Int, x1: Int, y1: Int
        /// Words of one line share it (a new value for each line, column, region or paragraph).
        var line: Int
    }

    /// Nesting deeper than this is not walked (a page is page › column › region › para › line
    /// › word: six levels).
    static let maximumDepth = 32

    static func words(_ expression: OpaquePointer, api: quire_djvu_api) -> [Word] {
        var words: [Word] = []
        var line = 0
        func walk(_ node: OpaquePointer?, depth: Int) {
            guard depth < maximumDepth, quire_miniexp_consp(node) != 0 else { return }
            // (kind x0 y0 x1 y1 rest…)
            var cursor = quire_miniexp_cdr(node)
            var numbers: [Int] = []
            while numbers.count < 4, quire_miniexp_numberp(quire_miniexp_car(cursor)) != 0 {
                numbers.append(Int(quire_miniexp_to_int(quire_miniexp_car(cursor))))
                cursor = quire_miniexp_cdr(cursor)
            }
            guard numbers.count == 4 else { return }
            let kind = quire_miniexp_symbolp(quire_miniexp_car(node)) != 0
                ? api.miniexp_to_name(quire_miniexp_car(node)).map { String(cString: $0) } ?? "" : ""
            if kind != "word" && kind != "char" { line += 1 }
            while quire_miniexp_consp(cursor) != 0 {
                let item = quire_miniexp_car(cursor)
                if api.miniexp_stringp(item) != 0, let text = api.miniexp_to_str(item).map({ String(cString: $0) }),
                   !text.isEmpty {
                    words.append(Word(text: text, x0: min(numbers[0], numbers[2]), y0: min(numbers[1], numbers[3]),
                                      x1: max(numbers[0], numbers[2]), y1: max(numbers[1], numbers[3]), line: line))
                } else {
                    walk(item, depth: depth + 1)
                }
                cursor = quire_miniexp_cdr(cursor)
            }
            if kind != "word" && kind != "char" { line += 1 }
        }
        walk(expression, depth: 0)
        return words
    }
}
