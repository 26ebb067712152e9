import Testing
@testable import QuireThumbnails

/// The worker pipe protocol carries raw bytes unchanged and rejects malformed frames.
@Suite struct WorkerProtocolTests {
    static func payload(_ frame: [UInt8]) -> [UInt8] {
        let length = Int(frame[0]) | Int(frame[1]) << 8 | Int(frame[2]) << 16 | Int(frame[3]) << 24
        #expect(length == frame.count - 4)
        return Array(frame.dropFirst(4))
    }

    @Test func requestsKeepNewlinesAndInvalidUTF8() throws {
        let path: [UInt8] = Array("/tmp/a\nb".utf8) + [0xFF, 0x00, 0x2D]
        let request = WorkerRequest(path: path, uri: "file:///tmp/a%0Ab%FF", sizes: [128, 1024], maximumFileSize: 1 << 40)
        let back = try WorkerRequest(payload: Self.payload(request.frame))
        #expect(back.path == path)
        #expect(back.uri == request.uri && back.sizes == [128, 1024] && back.maximumFileSize == 1 << 40)
    }

    @Test func responsesRoundTrip() throws {
        let rendered = WorkerResponse.rendered(modificationTime: 1_700_000_000, size: 42, mimeType: "application/pdf",
                                               pngBySize: [256: [1, 2, 3], 128: []])
        guard case let .rendered(mtime, size, mime, pngs) = try WorkerResponse(payload: Self.payload(rendered.frame)) else {
            Issue.record("not rendered")
            return
        }
        #expect(mtime == 1_700_000_000 && size == 42 && mime == "application/pdf" && pngs == [256: [1, 2, 3], 128: []])
        let failed = WorkerResponse.failed(ThumbnailFailure(.init(.damaged), "bad\nthing"), modificationTime: -1, size: -1)
        guard case let .failed(failure, _, _) = try WorkerResponse(payload: Self.payload(failed.frame)) else {
            Issue.record("not failed")
            return
        }
        #expect(failure.kind.rawValue == "damaged" && failure.reason == "bad\nthing" && failure.remedy == nil)
        let limited = WorkerResponse.failed(ThumbnailFailure(.init(.limitExceeded), "big", remedy: .raise(.pixels)),
                                            modificationTime: 1, size: 2)
        guard case let .failed(back, mtime2, size2) = try WorkerResponse(payload: Self.payload(limited.frame)) else {
            Issue.record("not failed")
            return
        }
        #expect(back == ThumbnailFailure(.init(.limitExceeded), "big", remedy: .raise(.pixels)) && mtime2 == 1 && size2 == 2)
        #expect(WorkerHandshake.isValid(Self.payload(WorkerHandshake.frame)))
    }

    @Test func malformedPayloadsAreRejected() {
        #expect(throws: WireReader.Malformed.self) { try WorkerRequest(payload: [1, 2, 3]) }
        #expect(throws: WireReader.Malformed.self) { try WorkerResponse(payload: [9, 0, 0, 0, 0, 0, 0, 0]) }
        var writer = WireWriter()
        writer.integer(1 << 40)  // a byte string claiming a terabyte
        #expect(throws: WireReader.Malformed.self) { try WorkerRequest(payload: writer.bytes) }
        #expect(!WorkerHandshake.isValid([]))
    }
}
