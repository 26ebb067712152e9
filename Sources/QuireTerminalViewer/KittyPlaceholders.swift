import Quire

/// Kitty graphics through tmux: the image is sent once as a virtual placement (`U=1`), each of
/// its escape sequences wrapped in tmux's passthrough (`ESC P tmux; … ESC \`, escapes doubled),
/// and the screen gets text — rows of the placeholder character U+10EEEE whose foreground
/// colour names the image and whose combining marks name the row — which tmux keeps in its
/// panes like any text: the picture moves with panes, windows and scrolling.
enum KittyPlaceholders {
    /// The placeholder character.
    static let placeholder: Unicode.Scalar = "\u{10EEEE}"

    /// The combining marks that number rows and columns (0, 1, 2, …), as the kitty graphics
    /// protocol lists them (its "rowcolumn-diacritics"): enough for the rows and the first
    /// column of any terminal; later columns of a row are inferred by the terminal.
    static let diacritics: [UInt32] = [
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C, 0x0350, 0x0351,
        0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369, 0x036A, 0x036B, 0x036C, 0x036D,
        0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592, 0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599,
        0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1, 0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611,
        0x0612, 0x0613, 0x0614, 0x0615, 0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6,
        0x06D7, 0x06D8, 0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
        0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743, 0x0745, 0x0747,
        0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3,
    ]

    /// `sequence` (one escape sequence) wrapped for tmux's passthrough.
    static func passthrough(_ sequence: [UInt8]) -> [UInt8] {
        var out = Array("\u{1B}Ptmux;".utf8)
        for byte in sequence {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        return out + Array("\u{1B}\\".utf8)
    }

    /// The image sent as a virtual placement `columns` × `rows` cells in size, image number
    /// `id` (1–255), through tmux's passthrough: raw RGBA in 4 kB chunks.
    static func transmit(_ image: RenderedImage, id: Int, columns: Int, rows: Int) -> [UInt8] {
        TerminalGraphics.kittyChunks(image.pixels, first: { more in
            "a=T,U=1,i=\(id),f=32,s=\(image.width),v=\(image.height),c=\(columns),r=\(rows),q=2,m=\(more)"
        }, wrap: passthrough)
    }

    /// Deletes every image (through tmux's passthrough).
    static var deleteAll: [UInt8] { passthrough(Array("\u{1B}_Ga=d,q=2\u{1B}\\".utf8)) }

    /// Row `row` of the placement (`columns` cells): the image number as a 256-colour
    /// foreground, then the placeholder with the row's and column 0's marks, then the
    /// placeholder alone (the terminal counts the columns on).
    static func row(_ row: Int, columns: Int, id: Int) -> String {
        guard columns > 0, diacritics.indices.contains(row) else { return "" }
        var text = "\u{1B}[38;5;\(id)m"
        text.unicodeScalars.append(placeholder)
        text.unicodeScalars.append(Unicode.Scalar(diacritics[row])!)
        text.unicodeScalars.append(Unicode.Scalar(diacritics[0])!)
        for _ in 1..<max(1, columns) { text.unicodeScalars.append(placeholder) }
        return text + "\u{1B}[39m"
    }
}
