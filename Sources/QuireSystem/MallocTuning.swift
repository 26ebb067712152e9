internal import CQuireSystem

/// glibc malloc settings for the viewer's long-lived processes (the window and its render
/// worker), which allocate and free page-sized buffers (megabytes) over and over.
///
/// By default glibc raises its mmap threshold to the size of the largest block freed so far (up
/// to 32 MB): after the first page, page buffers come from the heap or a thread's arena instead
/// of mappings of their own, and what is freed there stays resident (a heap shrinks only from
/// its top). A fixed threshold keeps every block of 128 KiB or more in its own mapping, which
/// goes back to the system when the block is freed (docs/notes/look.md, memory).
package enum MallocTuning {
    /// Blocks at least this large get mappings of their own.
    package static let largeBlock: Int32 = 128 * 1024

    /// Sets the fixed thresholds (process-wide; call early, before threads start).
    package static func returnLargeBlocksToTheSystem() {
        _ = quire_malloc_map_large_blocks(largeBlock)
    }

    /// Gives free memory inside malloc's heaps back to the system (after a burst of
    /// allocations, e.g. the window's start-up).
    package static func trim() {
        _ = quire_malloc_trim()
    }
}
