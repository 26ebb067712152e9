/// The counts every account of a batch keeps — one run's summary, the shards' merged one — so
/// that the files looked at are added up in one place when a status is added.
public protocol BatchCounts {
    /// Files whose thumbnails were written.
    var generated: Int { get }
    /// Files whose thumbnails were already current.
    var upToDate: Int { get }
    /// Files that failed.
    var failed: Int { get }
    /// Files not attempted.
    var skipped: Int { get }
    /// `--dry-run`: files that would be generated.
    var wouldGenerate: Int { get }
}

extension BatchCounts {
    /// Files looked at (every status).
    public var total: Int { generated + upToDate + failed + skipped + wouldGenerate }
}
