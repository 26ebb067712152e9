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

    /// Runs `body` with every block malloc hands out from its heaps filled with `fill` (glibc's
    /// `M_PERTURB`; process-wide while it runs): memory a library returns without writing it
    /// then holds `fill`, not what the process held before (another document's pixels).
    /// Blocks below about 1 KiB (the per-thread cache) and fresh mappings (zeros) are not filled.
    package static func fillingAllocations<T>(with fill: UInt8, _ body: () throws -> T) rethrows -> T {
        // M_PERTURB fills with the complement of the value's low byte; bit 8 keeps it nonzero
        // when that byte is 0 (a fill of 0xFF).
        _ = quire_malloc_perturb(Int32(0x100 | Int32(~fill)))
        defer { _ = quire_malloc_perturb(0) }
        return try body()
    }
}
