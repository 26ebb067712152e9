internal import CGdkPixbuf
import QuireTypes

/// Reads an image's pixel size and format from its header with gdk-pixbuf, without decoding
/// the pixels.
public enum ImageProbe {
    /// The header facts of the image in `file`, or nil when no installed loader recognises it.
    public static func info(of file: InputFile) -> ImageInfo? {
        guard let head = try? file.read(upTo: 64) else { return nil }
        if AVIFSequence.isSequence(head), file.size <= Int64(AnimationInfo.maximumBytes) {
            // An animated AVIF: libavif reads its track (a file with an image item too is
            // sized by that item below, as libheif draws it).
            var unlimited = RenderLimits.standard
            unlimited.maximumImagePixels = .max
            if HEIFImageSize(head: (try? file.read(upTo: HEIFImageSize.headLimit)) ?? []) == nil {
                // No image item: the track is the image, or the file is not readable (gdk-pixbuf's
                // HEIF loader would only print a warning of its own).
                guard let bytes = try? file.read(upTo: Int(file.size)),
                      let sequence = try? AVIFSequence(bytes: bytes, path: file.path, limits: unlimited) else { return nil }
                return ImageInfo(width: sequence.width, height: sequence.height, format: "avif")
            }
        }
        if JPEGXLImage.hasSignature(head) {
            guard let size = try? JPEGXLImage.size(of: file) else { return nil }
            return ImageInfo(width: size.width, height: size.height, format: "jxl")
        }
        if HEIFImageSize.mayBeHEIF(head.prefix(12)), LazyLibraries.heifIsInstalled {
            // The boxes say the primary image's size (any size: nothing is decoded); libheif
            // reads the files whose boxes this reader does not follow.
            if let boxes = try? file.read(upTo: HEIFImageSize.headLimit), let size = HEIFImageSize(head: boxes) {
                return ImageInfo(width: size.width, height: size.height, format: "heif")
            }
            var unlimited = RenderLimits.standard
            unlimited.maximumImagePixels = .max
            if let heif = try? HEIFFile(file: file, limits: unlimited), let size = heif.sizes.first {
                return ImageInfo(width: size.width, height: size.height, format: "heif")
            }
            // Not for gdk-pixbuf either: its HEIF loader is libheif too, and would only print a
            // warning of its own beside the one-line error.
            return nil
        }
        guard let api = LazyLibraries.installedPixbuf else { return nil }
        // Headers gdk-pixbuf must not see (a BMP claiming a gigabyte-sized info header).
        guard ImageIntegrity.unsafeHeader(head: head) == nil else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        // The /proc/self/fd path reads the very file that was checked and opened.
        guard let format = api.gdk_pixbuf_get_file_info(file.procPath, &width, &height),
              width > 0, height > 0 else { return nil }
        let name = api.gdk_pixbuf_format_get_name(format).map { pointer in
            defer { g_free(pointer) }
            return String(cString: pointer)
        }
        return ImageInfo(width: Int(width), height: Int(height), format: name)
    }

    /// Why `type` cannot be read on this machine — no installed gdk-pixbuf loader handles it —
    /// naming the Debian package that adds one where there is one; nil when a loader is
    /// installed. The one wording of this fact: `info`'s capabilities and the renderer (the
    /// window, the terminal viewer, `preview`, thumbnails) both say it.
    public static func missingLoader(for type: ContentType) -> String? {
        guard !canLoad(mimeType: type.mimeType) else { return nil }
        let reason = "no image loader for \(type.localizedDescription) is installed"
        guard let package = loaderPackage(mimeType: type.mimeType) else { return reason }
        return reason + " (install \(package))"
    }

    /// The Debian package whose gdk-pixbuf loader reads `mimeType`, for the formats the system
    /// lacks by default (Debian 12: heif-gdk-pixbuf reads HEIF/HEIC and AVIF, libavif-gdk-pixbuf AVIF).
    static func loaderPackage(mimeType: String) -> String? {
        switch mimeType {
        case "image/heif", "image/heic", "image/heif-sequence", "image/heic-sequence": return "heif-gdk-pixbuf"
        case "image/avif": return "libavif-gdk-pixbuf or heif-gdk-pixbuf"
        default: return nil
        }
    }

    /// Whether Quire reads images of `type` on this machine: JPEG XL through libjxl, HEIF and
    /// AVIF through libheif or a loader, the rest through an installed gdk-pixbuf loader.
    public static func canRead(_ type: ContentType) -> Bool {
        if JPEGXLImage.applies(to: type) { return EngineAvailability.missingLibrary(for: type) == nil }
        return HEIFFile.applies(to: type) || canLoad(mimeType: type.mimeType)
    }

    /// Whether an installed gdk-pixbuf loader handles `mimeType`.
    public static func canLoad(mimeType: String) -> Bool {
        supportedMimeTypes.contains(mimeType)
    }

    /// MIME types of every installed gdk-pixbuf loader (read once).
    public static let supportedMimeTypes: Set<String> = {
        var result = Set<String>()
        guard let api = LazyLibraries.installedPixbuf, let formats = api.gdk_pixbuf_get_formats() else { return result }
        defer { g_slist_free(formats) }
        var node: UnsafeMutablePointer<GSList>? = formats
        while let current = node {
            if let data = current.pointee.data, case let format = OpaquePointer(data),
               let types = api.gdk_pixbuf_format_get_mime_types(format) {
                var index = 0
                while let type = types[index] {
                    result.insert(String(cString: type))
                    index += 1
                }
                g_strfreev(types)
            }
            node = current.pointee.next
        }
        return result
    }()
}

/// Pixel facts of an image.
public struct ImageInfo: Sendable, Hashable, Codable {
    public let width: Int
    public let height: Int
    /// gdk-pixbuf's format name ("png", "jpeg", …).
    public let format: String?
}
