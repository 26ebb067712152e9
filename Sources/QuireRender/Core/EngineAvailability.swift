import QuireTypes

/// Whether the library an engine loads on first use is installed, for the families whose
/// engine needs one that Quire's package only recommends (DjVu's DjVuLibre): capabilities then
/// say what to install instead of promising a preview that fails.
public enum EngineAvailability {
    /// Why the engine for `type` cannot run on this machine (with the package to install), or
    /// nil. Raster images: the gdk-pixbuf loader (``ImageProbe/missingLoader(for:)``), camera
    /// RAW files: LibRaw.
    public static func missingLibrary(for type: ContentType) -> String? {
        switch type.family {
        case .djvu:
            do throws(DocumentError) { _ = try LazyLibraries.djvu(DocumentPath("")) } catch { return error.reason }
            return nil
        case .mail:
            do throws(DocumentError) { _ = try LazyLibraries.gmime(DocumentPath("")) } catch { return error.reason }
            return nil
        case .image where HEIFFile.applies(to: type):
            return nil
        case .image where JPEGXLImage.applies(to: type):
            do throws(DocumentError) { _ = try LazyLibraries.jxl(DocumentPath("")) } catch { return error.reason }
            return nil
        case .image where RawPhoto.applies(to: type):
            do throws(DocumentError) { _ = try LazyLibraries.raw(DocumentPath("")) } catch { return error.reason }
            return nil
        case .image:
            return ImageProbe.missingLoader(for: type)
        default:
            return nil
        }
    }
}
