import QuireTypes

/// Whether the library an engine loads on first use is installed, for the families whose
/// engine needs one that Quire's package only recommends (DjVu's DjVuLibre): capabilities then
/// say what to install instead of promising a preview that fails.
public enum EngineAvailability {
    /// Why `family`'s engine cannot run on this machine (with the package to install), or nil.
    public static func missingLibrary(for family: DocumentFamily) -> String? {
        switch family {
        case .djvu:
            do throws(DocumentError) { _ = try LazyLibraries.djvu(DocumentPath("")) } catch { return error.reason }
            return nil
        default:
            return nil
        }
    }
}
