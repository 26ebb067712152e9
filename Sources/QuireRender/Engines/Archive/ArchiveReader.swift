internal import CArchive
import QuireTypes

/// One libarchive read handle open on a file, with every filter and the archive formats Quire
/// lists enabled; freed with this object. Formats are enabled one by one, not "all": its mtree
/// reader takes any text for an archive (a gzip-compressed text file became "100 entries").
/// Last comes "raw" (unless ``init(_:rawStreams:)`` says not): a compressed file that holds no
/// archive is one entry.
final class ArchiveReader {
    let api: quire_archive_api
    let handle: OpaquePointer
    let path: DocumentPath

    /// `rawStreams`: a file that holds no archive (or a compressed one) is read as one entry,
    /// and an empty file as none, as the archive listing shows them; false: that is no archive.
    init(_ file: InputFile, rawStreams: Bool = true) throws(DocumentError) {
        let api = try LazyLibraries.archive(file.path)
        guard let handle = api.archive_read_new() else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "libarchive could not start")
        }
        self.api = api
        self.handle = handle
        path = file.path
        _ = api.archive_read_support_filter_all(handle)
        for enable in [api.archive_read_support_format_7zip, api.archive_read_support_format_ar,
                       api.archive_read_support_format_cab, api.archive_read_support_format_cpio,
                       api.archive_read_support_format_iso9660, api.archive_read_support_format_lha,
                       api.archive_read_support_format_rar, api.archive_read_support_format_rar5,
                       api.archive_read_support_format_tar, api.archive_read_support_format_xar,
                       api.archive_read_support_format_zip] {
            _ = enable(handle)
        }
        if rawStreams {
            _ = api.archive_read_support_format_empty(handle)
            _ = api.archive_read_support_format_raw(handle)
        }
        guard api.archive_read_open_filename(handle, file.procPath, 65536) == ARCHIVE_OK else {
            throw damaged()
        }
    }

    deinit { _ = api.archive_read_free(handle) }

    /// The archive cannot be read, with libarchive's reason.
    func damaged() -> DocumentError {
        let message = api.archive_error_string(handle).map { String(cString: $0) } ?? "unreadable"
        return DocumentError(kind: .damaged, path: path, reason: "not a readable archive (\(message))")
    }
}
