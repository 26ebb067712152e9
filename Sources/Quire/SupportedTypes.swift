/// The MIME types Quire can handle on this machine, derived from the type layer and the
/// installed loaders, so that integration files never drift from what the code supports.
public enum SupportedTypes {
    /// Capabilities for a type, refined by what this machine can load (image loaders).
    public static func capabilities(of type: ContentType) -> Capabilities {
        var result = type.capabilities
        if let reason = EngineAvailability.missingLibrary(for: type) {
            result.preview = .unsupported(reason: reason)
            result.thumbnail = .unsupported(reason: reason)
            result.print = .unsupported(reason: reason)
        }
        return result
    }

    /// MIME types Quire can thumbnail, sorted.
    public static var thumbnailable: [String] {
        registered.filter { capabilities(of: $0).thumbnail.isSupported }.map(\.mimeType)
    }

    /// MIME types Quire's freedesktop thumbnailer claims, sorted: what it can thumbnail except
    /// raster images and SVG. The system's own thumbnailers (gdk-pixbuf's, librsvg's) make those
    /// as well — EXIF orientation included — and a file manager takes the first thumbnailer that
    /// lists a type, so claiming them would only replace a working thumbnailer. Camera RAW files
    /// are claimed: no gdk-pixbuf loader reads them (Quire shows the camera's embedded preview).
    public static var thumbnailerTypes: [String] {
        registered.filter { type in
            (type.family != .image || PhotoDetails.isCameraRaw(type)) && type.family != .svg && capabilities(of: type).thumbnail.isSupported
        }.map(\.mimeType)
    }

    /// MIME types Quire can preview, sorted.
    public static var previewable: [String] {
        registered.filter { capabilities(of: $0).preview.isSupported }.map(\.mimeType)
    }

    /// MIME types whose content Quire can print (directly or by conversion), sorted.
    public static var printable: [String] {
        registered.filter { capabilities(of: $0).print.isSupported }.map(\.mimeType)
    }

    private static var registered: [ContentType] {
        var seen = Set<String>()
        // Two registered names can resolve to one type (an alias the hierarchy knows): once.
        return ContentType.registeredMimeTypes
            .filter { !$0.hasPrefix("inode/") && !$0.hasPrefix("x-scheme-handler/") && !$0.hasPrefix("x-content/") }
            .map(ContentType.init(mimeType:))
            .filter { seen.insert($0.mimeType).inserted }
    }
}
