/// Version facts of the thumbnails module.
public enum QuireThumbnailsInfo {
    /// Quire's version, used in `Software` and the failure-marker directory name: the one
    /// `quire --version` prints (scripts/version.sh, through Plugins/QuireVersion).
    public static let version = QuireBuildVersion.string
    /// The `Software` tEXt value.
    public static let software = "Quire \(version)"
}
