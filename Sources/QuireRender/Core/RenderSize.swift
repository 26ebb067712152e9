/// How large a rendered page should be, in pixels.
public enum RenderSize: Sendable, Hashable {
    /// Pages at 96 dpi; raster images at their own pixel size.
    case natural
    /// Fit inside a box, keeping the aspect ratio: the limiting side equals the box's.
    case fit(width: Int, height: Int)
    /// This many pixels wide, height from the aspect ratio.
    case width(Int)

    /// Fit inside a square box: the longest side equals `side`.
    public static func longestSide(_ side: Int) -> RenderSize { .fit(width: side, height: side) }

    /// Pixel size for a page of `page` points (pixels for rasters).
    /// - Parameter upscale: when false, a raster image is never made larger than its own size.
    public func pixels(for page: PageSize, isRaster: Bool, upscale: Bool) -> (width: Int, height: Int) {
        let w = max(page.width, 1), h = max(page.height, 1)
        func clamp(_ value: Double) -> Int { max(1, min(CairoImage.maximumSide, Int(value.rounded()))) }
        switch self {
        case .natural:
            let scale = isRaster ? 1 : 96.0 / 72
            return (clamp(w * scale), clamp(h * scale))
        case .width(let width):
            var scale = Double(max(1, width)) / w
            if isRaster && !upscale { scale = min(scale, 1) }
            return (clamp(w * scale), clamp(h * scale))
        case .fit(let boxWidth, let boxHeight):
            let bw = Double(max(1, boxWidth)), bh = Double(max(1, boxHeight))
            let widthLimits = bw / w <= bh / h
            var scale = min(bw / w, bh / h)
            if isRaster && !upscale && scale >= 1 { return (clamp(w), clamp(h)) }
            scale = max(scale, 0)
            // The limiting side is exact; the other follows the aspect ratio.
            return widthLimits ? (max(1, boxWidth), clamp(h * scale)) : (clamp(w * scale), max(1, boxHeight))
        }
    }
}
