#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Quire

/// Shows an image inline in a terminal: the kitty graphics protocol or iTerm2 inline images
/// when the terminal announces them, sixel for terminals known to speak it, else Unicode
/// half-block cells in 24-bit colour (two pixels per cell, one above the other).
public enum TerminalGraphics {
    public enum Method: String, Sendable { case kitty, iterm, sixel, blocks }

    /// The protocol this terminal supports, from what it says about itself in the environment.
    /// `QUIRE_GRAPHICS=kitty|iterm|sixel|blocks` overrides the guess.
    public static func detect(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Method {
        if let forced = environment["QUIRE_GRAPHICS"].flatMap(Method.init(rawValue:)) { return forced }
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil || program == "ghostty" || term == "xterm-ghostty" {
            return .kitty
        }
        if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" || program == "WezTerm" {
            return .iterm
        }
        if term.contains("sixel") || ["foot", "foot-extra", "mlterm", "yaft-256color", "contour"].contains(term) {
            return .sixel
        }
        return .blocks
    }

    /// Terminal size in cells and, where the terminal reports it, in pixels.
    public static func windowSize() -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return (Int(size.ws_col), Int(size.ws_row), Int(size.ws_xpixel), Int(size.ws_ypixel))
        }
        let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
        let rows = ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init) ?? 24
        return (columns, rows, 0, 0)
    }

    /// The pixel box an inline image should fit for `proto` in this window.
    /// - Parameter reservedRows: rows already taken above the picture (an info card), so that
    ///   the picture and what was printed before it fit on the screen together.
    public static func box(for proto: Method, reservingRows reservedRows: Int = 0) -> (width: Int, height: Int) {
        let window = windowSize()
        let rows = max(4, window.rows - 3 - max(0, reservedRows))
        switch proto {
        case .blocks:
            return (window.columns, rows * 2)
        default:
            let cellWidth = window.pixelWidth > 0 ? window.pixelWidth / window.columns : 8
            let cellHeight = window.pixelHeight > 0 && window.rows > 0 ? window.pixelHeight / window.rows : 16
            return (min(window.columns * cellWidth, 2048), min(rows * cellHeight, 2048))
        }
    }

    /// The escape sequences (or cells) that draw `image`, ending with a newline.
    public static func encode(_ image: RenderedImage, as proto: Method) throws -> [UInt8] {
        switch proto {
        case .kitty:
            return try kittyChunks(PNGEncoder.encode(image)) { more in "a=T,f=100,m=\(more)" } + Array("\n".utf8)
        case .iterm:
            let png = try PNGEncoder.encode(image)
            let base64 = Data(png).base64EncodedString()
            return Array("\u{1B}]1337;File=inline=1;size=\(png.count);preserveAspectRatio=1:\(base64)\u{07}\n".utf8)
        case .sixel:
            return sixel(image) + Array("\n".utf8)
        case .blocks:
            return halfBlocks(image)
        }
    }

    /// `payload` sent with the kitty graphics protocol: base64 in pieces of 4096 bytes (the
    /// protocol's limit), each its own `ESC _G <control> ; <piece> ESC \`. The first piece's
    /// control is `first(more)`, the keys that say what the image is; the later ones carry only
    /// `m=<more>`. `more` is 1 while pieces follow, 0 on the last. `wrap` gets each escape
    /// sequence (tmux's passthrough wraps every one).
    static func kittyChunks(_ payload: [UInt8], first: (_ more: Int) -> String,
                            wrap: ([UInt8]) -> [UInt8] = { $0 }) -> [UInt8] {
        let base64 = Array(Data(payload).base64EncodedString().utf8)
        var out: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(base64.count, offset + 4096)
            let more = end < base64.count ? 1 : 0
            let control = offset == 0 ? first(more) : "m=\(more)"
            out += wrap(Array("\u{1B}_G\(control);".utf8) + base64[offset..<end] + Array("\u{1B}\\".utf8))
            offset = end
        } while offset < base64.count
        return out
    }

    /// Upper-half-block cells: foreground = upper pixel, background = lower pixel; mostly
    /// transparent pixels keep the terminal's own background.
    public static func halfBlocks(_ image: RenderedImage) -> [UInt8] {
        var out = ""
        for y in stride(from: 0, to: image.height, by: 2) {
            var current = ""  // the SGR state in effect on this line; repeated only on change
            for x in 0..<image.width {
                let top = image.pixel(x: x, y: y)
                let bottom = y + 1 < image.height ? image.pixel(x: x, y: y + 1) : RenderedImage.Pixel(red: 0, green: 0, blue: 0, alpha: 0)
                let style: String, glyph: String
                switch (top.alpha >= 128, bottom.alpha >= 128) {
                case (true, true):
                    style = "\u{1B}[38;2;\(top.red);\(top.green);\(top.blue);48;2;\(bottom.red);\(bottom.green);\(bottom.blue)m"
                    glyph = "▀"
                case (true, false):
                    style = "\u{1B}[0;38;2;\(top.red);\(top.green);\(top.blue)m"
                    glyph = "▀"
                case (false, true):
                    style = "\u{1B}[0;38;2;\(bottom.red);\(bottom.green);\(bottom.blue)m"
                    glyph = "▄"
                case (false, false):
                    style = "\u{1B}[0m"
                    glyph = " "
                }
                if style != current {
                    out += style
                    current = style
                }
                out += glyph
            }
            out += "\u{1B}[0m\n"
        }
        return Array(out.utf8)
    }

    /// DEC sixel with a fixed 6×6×6 colour cube (216 registers); transparent pixels are left
    /// unpainted.
    public static func sixel(_ image: RenderedImage) -> [UInt8] {
        var out = Array("\u{1B}Pq\"1;1;\(image.width);\(image.height)".utf8)
        for index in 0..<216 {
            let r = index / 36, g = (index / 6) % 6, b = index % 6
            out += Array("#\(index);2;\(r * 20);\(g * 20);\(b * 20)".utf8)
        }
        func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }
        var registers = [Int](repeating: -1, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                if p.alpha >= 128 { registers[y * image.width + x] = level(p.red) * 36 + level(p.green) * 6 + level(p.blue) }
            }
        }
        for band in stride(from: 0, to: image.height, by: 6) {
            var used = Set<Int>()
            for y in band..<min(band + 6, image.height) {
                for x in 0..<image.width where registers[y * image.width + x] >= 0 { used.insert(registers[y * image.width + x]) }
            }
            for color in used.sorted() {
                out += Array("#\(color)".utf8)
                var run = 0
                var previous: UInt8 = 0
                func flush() {
                    guard run > 0 else { return }
                    if run > 3 { out += Array("!\(run)".utf8) + [previous] } else { out += [UInt8](repeating: previous, count: run) }
                }
                for x in 0..<image.width {
                    var bits: UInt8 = 0
                    for dy in 0..<6 where band + dy < image.height && registers[(band + dy) * image.width + x] == color {
                        bits |= 1 << dy
                    }
                    let char = 63 + bits
                    if char == previous { run += 1 } else { flush(); previous = char; run = 1 }
                }
                flush()
                out += Array("$".utf8)
            }
            out += Array("-".utf8)
        }
        return out + Array("\u{1B}\\".utf8)
    }
}
