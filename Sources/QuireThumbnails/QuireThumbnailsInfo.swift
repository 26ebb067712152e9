/// Version facts of the thumbnails module.
public enum QuireThumbnailsInfo {
    /// Quire's version, used in `Software` and the failure-marker directory name.
    public static let version = "0.1.0"
    /// The `Software` tEXt value.
    public static let software = "Quire \(version)"
}
