import Foundation
import Quire
import QuireTestSupport
import Testing

/// A decoded screenshot (RGBA), with the counts a window test asks for.
public struct Screenshot: Sendable {
    public let path: String
    public let image: RenderedImage

    public init(path: String) throws {
        let document = try Document(path: DocumentPath(path))
        image = try document.renderer().render(page: 0, size: .natural)
        self.path = path
    }

    /// Copies this screenshot to the path in the environment variable `variable`, when it is
    /// set (for the README's pictures: `QUIRE_DOCS_SCREENSHOT=… swift test --filter …`).
    public func keep(at variable: String) throws {
        guard let target = ProcessInfo.processInfo.environment[variable], !target.isEmpty else { return }
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: path, toPath: target)
    }

    /// This screenshot, copied into the folder named by the environment variable `variable`
    /// (under its own file name) when it is set, to be looked at.
    public func kept(inFolder variable: String) -> Screenshot {
        if let folder = ProcessInfo.processInfo.environment[variable], !folder.isEmpty {
            let target = folder + "/" + URL(fileURLWithPath: path).lastPathComponent
            try? FileManager.default.removeItem(atPath: target)
            try? FileManager.default.copyItem(atPath: path, toPath: target)
        }
        return self
    }

    /// Pixels for which `matches(r, g, b)` holds.
    public func count(_ matches: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        var count = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                if matches(pixels[offset], pixels[offset + 1], pixels[offset + 2]) { count += 1 }
                offset += 4
            }
        }
        return count
    }

    /// Pixels inside `rect` (window coordinates, clipped to the image) for which `matches(r, g, b)` holds.
    public func count(in rect: WindowTestBed.Accessible.Extents, _ matches: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        var count = 0
        let width = image.width, height = image.height
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in max(0, rect.y)..<max(max(0, rect.y), min(height, rect.y + rect.height)) {
                for x in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.x + rect.width)) {
                    let offset = (y * width + x) * 4
                    if matches(pixels[offset], pixels[offset + 1], pixels[offset + 2]) { count += 1 }
                }
            }
        }
        return count
    }

    /// The smallest rectangle holding every pixel for which `matches(r, g, b)` holds (nil: none).
    public func bounds(of matches: (UInt8, UInt8, UInt8) -> Bool) -> (x: Int, y: Int, width: Int, height: Int)? {
        var left = Int.max, top = Int.max, right = -1, bottom = -1
        let width = image.width
        image.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0, index = 0
            while offset < pixels.count {
                if matches(pixels[offset], pixels[offset + 1], pixels[offset + 2]) {
                    let x = index % width, y = index / width
                    left = min(left, x); right = max(right, x); top = min(top, y); bottom = max(bottom, y)
                }
                offset += 4
                index += 1
            }
        }
        guard right >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    /// The rows of `rect` (window coordinates) holding a pixel for which `matches` holds,
    /// grouped into runs of adjacent rows: the lines of text drawn there, top to bottom.
    public func bands(in rect: WindowTestBed.Accessible.Extents, _ matches: (UInt8, UInt8, UInt8) -> Bool) -> [Range<Int>] {
        var bands: [Range<Int>] = []
        var start: Int?
        let width = image.width, height = image.height
        let top = max(0, rect.y), bottom = min(height, rect.y + rect.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in top..<max(top, bottom) {
                var inked = false
                for x in max(0, rect.x)..<max(max(0, rect.x), min(width, rect.x + rect.width)) {
                    let offset = (y * width + x) * 4
                    if matches(pixels[offset], pixels[offset + 1], pixels[offset + 2]) { inked = true; break }
                }
                if inked, start == nil { start = y }
                if !inked, let first = start { bands.append(first..<y); start = nil }
            }
        }
        if let first = start { bands.append(first..<max(top, bottom)) }
        return bands
    }

    /// Pure-ish red pixels (the sample document's first page has a red rectangle).
    public var redPixels: Int { count { r, g, b in r > 200 && g < 60 && b < 60 } }
    /// White pixels (paper).
    public var whitePixels: Int { count { r, g, b in r > 250 && g > 250 && b > 250 } }
    /// Near-black pixels (text).
    public var darkPixels: Int { count { r, g, b in r < 60 && g < 60 && b < 60 } }

    /// Saturated pixels (text drawn in a colour, not black, grey or white) by hue, in six
    /// 60° sectors: how many pixels fall in each sector.
    public var saturatedByHue: [Int] {
        var sectors = [Int](repeating: 0, count: 6)
        image.pixels.withUnsafeBufferPointer { pixels in
            var offset = 0
            while offset < pixels.count {
                let r = Int(pixels[offset]), g = Int(pixels[offset + 1]), b = Int(pixels[offset + 2])
                let high = max(r, g, b), low = min(r, g, b)
                if high - low > 70 {
                    let chroma = Double(high - low)
                    var hue: Double
                    if high == r { hue = Double(g - b) / chroma } else if high == g { hue = 2 + Double(b - r) / chroma } else { hue = 4 + Double(r - g) / chroma }
                    if hue < 0 { hue += 6 }
                    sectors[min(5, Int(hue))] += 1
                }
                offset += 4
            }
        }
        return sectors
    }

    /// Distinct text colours on screen: hue sectors with at least `minimum` saturated pixels.
    public func colourCount(minimum: Int = 40) -> Int { saturatedByHue.filter { $0 >= minimum }.count }

    /// The share of pixels darker than `level` in every channel.
    public func darkShare(below level: UInt8 = 80) -> Double {
        Double(count { r, g, b in r < level && g < level && b < level }) / Double(max(1, image.width * image.height))
    }

    /// Pixels that differ between two screenshots of the same size.
    public func differingPixels(from other: Screenshot) -> Int {
        guard image.width == other.image.width, image.height == other.image.height else { return image.pixels.count / 4 }
        var count = 0
        image.pixels.withUnsafeBufferPointer { a in
            other.image.pixels.withUnsafeBufferPointer { b in
                var offset = 0
                while offset < a.count {
                    if a[offset] != b[offset] || a[offset + 1] != b[offset + 1] || a[offset + 2] != b[offset + 2] { count += 1 }
                    offset += 4
                }
            }
        }
        return count
    }
}

extension WindowTestBed {
    /// Screenshots of window `window` (an X id, nil fails the test) until `condition` holds
    /// (a page is painted after the window maps), or `timeout`: the last one.
    func waitForScreenshot(_ name: String, window: String?, timeout: Double = 20,
                           until condition: (Screenshot) -> Bool = { _ in true }) throws -> Screenshot {
        let window = try #require(window, "no window to take \(name) of")
        let deadline = Date().addingTimeInterval(timeout)
        var shot = try Screenshot(path: screenshot(name, window: window))
        while !condition(shot) && Date() < deadline {
            usleep(200_000)
            shot = try Screenshot(path: screenshot(name, window: window))
        }
        return shot
    }
}
