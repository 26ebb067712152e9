#if canImport(Glibc)
import Glibc
#endif

/// What a child started by ``ChildProcess`` inherits of the parent's open files: standard
/// input, output and error only.
///
/// C libraries inside Quire (and Foundation's `mkstemp`) open files without close-on-exec; a
/// child started while another thread holds such a descriptor would keep it for its whole life.
/// A kept write descriptor to an executable makes every later `exec` of it fail with "Text file
/// busy", and a kept pipe end keeps the other side from ever seeing its end. glibc 2.34 has
/// `posix_spawn_file_actions_addclosefrom_np`; Swift's Glibc module does not declare it, so it is
/// looked up once.
package enum InheritedDescriptors {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static let addCloseFrom: AddCloseFrom? =
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// Adds "close every descriptor from 3 up" to `actions`, after the dup2s that fill 0–2.
    /// Returns false where the C library lacks it (glibc before 2.34): then the child inherits
    /// what is not close-on-exec, as before.
    @discardableResult
    package static func closeAboveStandard(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) -> Bool {
        guard let addCloseFrom else { return false }
        return addCloseFrom(actions, 3) == 0
    }
}
