#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CArchive
import QuireTypes

/// Reads entries of a zip container in-process with libarchive, with limits on the number of
/// entries and on each entry's inflated size (zip bombs). Entry names are only compared, never
/// used as file names or passed to any program.
final class ZipArchive {
    let file: InputFile
    let limits: RenderLimits
    var path: DocumentPath { file.path }
    /// Bytes inflated so far from this container, across entries (``RenderLimits/maximumInflatedBytes``).
    private(set) var inflated = 0

    init(file: InputFile, limits: RenderLimits) {
        self.file = file
        self.limits = limits
    }

    /// An open libarchive reader over the file (a fresh open of the checked file through
    /// `/proc/self/fd`, so it has its own offset).
    private final class Reader {
        let handle: OpaquePointer
        let api: quire_archive_api
        init(file: InputFile) throws(DocumentError) {
            let api = try LazyLibraries.archive(file.path)
            self.api = api
            guard let handle = api.archive_read_new() else {
                throw DocumentError(kind: .limitExceeded, path: file.path, reason: "libarchive could not allocate a reader")
            }
            self.handle = handle
            _ = api.archive_read_support_format_zip(handle)
            if api.archive_read_open_filename(handle, file.procPath, 65536) != ARCHIVE_OK {
                let message = api.archive_error_string(handle).map { String(cString: $0) } ?? "cannot open the archive"
                // Every stored property is set, so throwing runs deinit, which frees the handle:
                // freeing it here too was a double free (found by fuzz-thumbnail).
                throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable zip container (\(message))")
            }
        }
        deinit { _ = api.archive_read_free(handle) }

        var errorMessage: String { api.archive_error_string(handle).map { String(cString: $0) } ?? "unknown error" }

        /// The next entry's name, nil at the end.
        func next(path: DocumentPath) throws(DocumentError) -> (name: String, isFile: Bool)? {
            var entry: OpaquePointer?
            let status = api.archive_read_next_header(handle, &entry)
            if status == ARCHIVE_EOF { return nil }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw DocumentError(kind: .damaged, path: path, reason: "damaged zip container (\(errorMessage))")
            }
            let name = api.archive_entry_pathname_utf8(entry).map { String(cString: $0) }
                ?? api.archive_entry_pathname(entry).map { String(decoding: Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
                ?? ""
            return (name, api.archive_entry_filetype(entry) & 0o170000 == 0o100000)
        }
    }

    /// The next entry, counting it against ``RenderLimits/maximumArchiveEntries``.
    private func nextEntry(_ reader: Reader, counted count: inout Int) throws(DocumentError) -> (name: String, isFile: Bool)? {
        guard let entry = try reader.next(path: path) else { return nil }
        count += 1
        if count > limits.maximumArchiveEntries {
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "zip container has " + Limit.entries.exceeded(limits.maximumArchiveEntries, "entries"),
                                remedy: .raise(.entries))
        }
        return entry
    }

    /// Names of the regular-file entries, in archive order.
    func entryNames() throws(DocumentError) -> [String] {
        let reader = try Reader(file: file)
        var names: [String] = []
        var count = 0
        while let entry = try nextEntry(reader, counted: &count) {
            if entry.isFile { names.append(entry.name) }
        }
        return names
    }

    /// The inflated bytes of entry `name`, refused past `limit` bytes, or when the bytes inflated
    /// from this container in all would pass ``RenderLimits/maximumInflatedBytes``.
    func contents(of name: String, limit: Int? = nil) throws(DocumentError) -> [UInt8] {
        let maximum = limit ?? limits.maximumInflatedBytes
        let reader = try Reader(file: file)
        var count = 0
        while let entry = try nextEntry(reader, counted: &count) {
            guard entry.name == name else { continue }
            var data: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let read = chunk.withUnsafeMutableBytes { reader.api.archive_read_data(reader.handle, $0.baseAddress, $0.count) }
                if read == 0 { break }
                if read < 0 {
                    throw DocumentError(kind: .damaged, path: path,
                                        reason: "cannot inflate \(TerminalEscaping.escaped(Array(name.utf8))) (\(reader.errorMessage))")
                }
                if data.count + read > maximum {
                    let reason = limit == nil
                        ? Limit.inflatedSize.exceeded(maximum, "bytes") : "more than the \(maximum)-byte limit for this entry"
                    throw DocumentError(kind: .limitExceeded, path: path,
                                        reason: "zip bomb? \(TerminalEscaping.escaped(Array(name.utf8))) inflates to \(reason)",
                                        remedy: limit == nil ? .raise(.inflatedSize) : nil)
                }
                if inflated + data.count + read > limits.maximumInflatedBytes {
                    throw DocumentError(kind: .limitExceeded, path: path,
                                        reason: "zip bomb? the container inflates to "
                                            + Limit.inflatedSize.exceeded(limits.maximumInflatedBytes, "bytes"),
                                        remedy: .raise(.inflatedSize))
                }
                data.append(contentsOf: chunk[0..<read])
            }
            inflated += data.count
            return data
        }
        throw DocumentError(kind: .damaged, path: path, reason: "zip entry \(name) is missing")
    }
}

import FoundationEssentials
