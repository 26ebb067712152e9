#if canImport(Glibc)
import Glibc
#endif
import QuireRender

/// When a render worker that runs an office ends itself after a reply: after
/// ``maximumOfficeDocuments`` office documents, or once its resident size passes
/// ``residentCeilingBytes`` (LibreOffice keeps caches and fragments its heap; it cannot be
/// restarted inside a process). It exits with status 0 after writing its reply; clients take a
/// clean exit in the middle of a request as "recycled" and send the request to a fresh worker.
/// Workers that never opened an office document are not recycled.
struct WorkerRecycling: Sendable {
    var maximumOfficeDocuments: Int
    var residentCeilingBytes: Int

    /// `QUIRE_OFFICE_RECYCLE_DOCUMENTS` and `QUIRE_OFFICE_RSS_CEILING_MB` override the defaults
    /// (50 documents, 1024 MB).
    init(environment: [String: String]) {
        maximumOfficeDocuments = environment["QUIRE_OFFICE_RECYCLE_DOCUMENTS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 50
        let megabytes = environment["QUIRE_OFFICE_RSS_CEILING_MB"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1024
        residentCeilingBytes = megabytes << 20
    }

    /// Why this worker should end now, nil to go on.
    func reasonToEnd() -> String? {
        guard OfficeProcessState.isRunning else { return nil }
        let converted = OfficeProcessState.documentsConverted
        if converted >= maximumOfficeDocuments { return "\(converted) office documents converted" }
        if let resident = Self.residentBytes(), resident > residentCeilingBytes {
            return "resident size \(resident >> 20) MB over \(residentCeilingBytes >> 20) MB"
        }
        return nil
    }

    /// This process's resident set size (`/proc/self/statm`, second field, in pages).
    static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
