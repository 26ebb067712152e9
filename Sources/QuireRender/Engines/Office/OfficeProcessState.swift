#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem

/// What this process's office (LibreOfficeKit) has done, for the render worker's recycling:
/// an office cannot be shut down and started again in one process, so a worker that has
/// converted many documents, or grown large, ends and its client starts a fresh one.
public enum OfficeProcessState {
    /// Whether this process has started an office.
    public static var isRunning: Bool { OfficeKit.isRunningInProcess }
    /// Documents this process's office has converted.
    public static var documentsConverted: Int { OfficeKit.documentsConvertedInProcess }
    /// Removes the office's private profile and temporary files; for the process's very end
    /// (the office must not be used after it).
    public static func removePrivateFiles() { OfficeKitCleanup.removeAll() }
    /// Removes what offices of processes that no longer exist left in TMPDIR (workers killed on
    /// their timeout outside bubblewrap): for a batch whose workers have all ended.
    public static func removeFilesOfDeadOffices() {
        let base = TemporaryFolder.path   // as OfficeKit chose it
        OfficeKitCleanup.removeStale(in: base)
    }
}
