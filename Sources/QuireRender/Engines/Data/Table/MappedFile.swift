#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import QuireTypes

/// A file mapped read-only into memory (`mmap(2)`, `PROT_READ`, `MAP_PRIVATE`): the table
/// reader reads a gigabyte without copying it, and pages it has passed can be given back
/// (``release(_:)``) so that counting a whole file does not keep it resident.
/// Sendable: the mapping is read-only and never changes while it lives; its address is kept as
/// an integer and unmapped once, in `deinit`.
final class MappedFile: Sendable {
    /// Where the mapping starts (0 for an empty file: nothing is mapped).
    private let address: UInt
    /// Bytes mapped (the file's size when it was mapped).
    let count: Int

    /// Maps `file` whole. A file that shrinks afterwards would fault past its end, so the caller
    /// reads only within ``count`` of a file opened read-only (the render worker's files).
    init(_ file: InputFile) throws(DocumentError) {
        count = Int(file.size)
        guard count > 0 else {
            address = 0
            return
        }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, file.descriptor.rawValue, 0)
        guard let mapped, mapped != MAP_FAILED else {
            let error = Errno.current
            if error == Errno(rawValue: ENOMEM) {
                // The address space is limited (the render worker's and one-shot commands' memory limit).
                throw DocumentError(kind: .limitExceeded, path: file.path,
                                    reason: "the file (\(count) bytes) cannot be mapped within the memory limit (\(error))", remedy: .raise(.memory))
            }
            throw DocumentError(kind: .unsupported, path: file.path, reason: "the file cannot be mapped into memory (\(error))")
        }
        address = UInt(bitPattern: mapped)
        // Read mostly front to back: the kernel may read ahead further.
        madvise(mapped, count, MADV_SEQUENTIAL)
    }

    deinit {
        if count > 0, let pointer = UnsafeMutableRawPointer(bitPattern: address) { munmap(pointer, count) }
    }

    /// The mapped bytes.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count)
    }

    /// Gives back the resident pages wholly inside `range` (they are read again from the page
    /// cache if touched later): a count of all rows passes over every page once.
    func release(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (range.lowerBound + page - 1) / page * page
        let end = range.upperBound / page * page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: address + UInt(start)) else { return }
        madvise(pointer, end - start, MADV_DONTNEED)
    }
}
