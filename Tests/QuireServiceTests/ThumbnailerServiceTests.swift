import Foundation
import QuireTestSupport
import QuireThumbnails
import QuireTypes
import Testing

/// `quire thumbnailer-service` on a private session bus, driven with `gdbus` exactly as a file
/// manager's client would: real files, real worker processes, a temporary thumbnail cache.
@Suite("D-Bus thumbnailer service", .serialized)
final class ThumbnailerServiceTests {
    static let name = "org.freedesktop.thumbnails.Thumbnailer1"
    static let path = "/org/freedesktop/thumbnails/Thumbnailer1"
    let bus: PrivateSessionBus
    let cacheHome: TemporaryDirectory
    let files: TemporaryDirectory
    var service: BackgroundProcess?
    var monitor: BackgroundProcess?

    init() throws {
        bus = try PrivateSessionBus()
        cacheHome = TemporaryDirectory("quire-service-cache")
        files = TemporaryDirectory("quire-service-files")
    }

    deinit {
        monitor?.stop()
        service?.stop()
    }

    func start(idleTimeout: Double = 30, extra: [String: String] = [:], timeout: Double = 15) throws {
        let env = bus.environment(["XDG_CACHE_HOME": cacheHome.path].merging(extra) { $1 })
        service = try BackgroundProcess(
            [QuireBinary.path, "thumbnailer-service", "--idle-timeout", String(idleTimeout),
             "--timeout", String(timeout)],
            environment: env, directory: bus.directory.path)
        // Ready once the name answers.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if call("GetFlavors", []).status == 0 { break }
            usleep(50_000)
        }
        monitor = try BackgroundProcess(
            ["/usr/bin/gdbus", "monitor", "--session", "--dest", Self.name],
            environment: bus.environment(), directory: bus.directory.path)
        // gdbus prints the owner once its signal subscription is in place (same connection,
        // in order): from then on no signal is missed.
        let listening = Date().addingTimeInterval(15)
        while !(monitor?.output.contains("is owned by") ?? false) && Date() < listening { usleep(20_000) }
    }

    func call(_ method: String, _ arguments: [String], interface: String = ThumbnailerServiceTests.name,
              path: String = ThumbnailerServiceTests.path) -> ProcessRunner.Result {
        bus.call(Self.name, path, "\(interface).\(method)", arguments)
    }

    func queue(_ uris: [String], flavor: String = "normal", scheduler: String = "default") -> ProcessRunner.Result {
        let list = "[" + uris.map { "'\($0)'" }.joined(separator: ",") + "]"
        let types = "[" + uris.map { _ in "'application/octet-stream'" }.joined(separator: ",") + "]"
        return call("Queue", [list, types, flavor, scheduler, "0"])
    }

    static func handle(_ result: ProcessRunner.Result) -> String? {
        // "(uint32 7,)"
        result.standardOutputText.split(separator: " ").last.map { $0.filter(\.isNumber) }
    }

    /// Signal lines seen so far for one handle.
    func signals(_ handle: String) -> [String] {
        (monitor?.output ?? "").split(separator: "\n").map(String.init)
            .filter { $0.contains("(uint32 \(handle),") || $0.contains("(uint32 \(handle))") }
    }

    func waitFor(_ signal: String, handle: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if signals(handle).contains(where: { $0.contains(".\(signal) ") }) { return true }
            usleep(50_000)
        }
        return false
    }

    func uri(_ path: String) -> String { ThumbnailKey(path: DocumentPath(path))!.uri }

    /// The test bus starts nothing by D-Bus activation: before the test's own service runs, the
    /// name has no owner, even on a machine where `make install` put quire's .service file under
    /// /usr/local (an activated quire would use the real cache, not the test's).
    @Test func theTestBusActivatesNoInstalledService() {
        let result = call("GetFlavors", [])
        #expect(result.status != 0)
        #expect(result.standardError.contains("ServiceUnknown"), "\(result.standardError)")
    }

    @Test func queueThumbnailsRealFilesIntoTheCache() throws {
        try start()
        let pdf = uri(Samples.path("document.pdf"))
        let png = uri(Samples.path("quadrants.png"))
        let result = queue([pdf, png])
        #expect(result.status == 0, "\(result.standardError)")
        let handle = try #require(Self.handle(result))
        #expect(waitFor("Finished", handle: handle))
        let lines = signals(handle)
        let started = lines.firstIndex { $0.contains(".Started ") }
        let ready = lines.firstIndex { $0.contains(".Ready ") }
        let finished = lines.firstIndex { $0.contains(".Finished ") }
        #expect(started != nil && ready != nil && finished != nil)
        if let started, let ready, let finished { #expect(started < ready && ready < finished) }
        #expect(lines.first { $0.contains(".Ready ") }?.contains(pdf) == true)
        #expect(!lines.contains { $0.contains(".Error ") })
        // The cache holds each thumbnail under the MD5 of its URI, 0600.
        for path in [Samples.path("document.pdf"), Samples.path("quadrants.png")] {
            let key = try #require(ThumbnailKey(path: DocumentPath(path)))
            let entry = cacheHome.file("thumbnails/normal/\(key.fileName)")
            let attributes = try FileManager.default.attributesOfItem(atPath: entry)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(ThumbnailCache.metadata(at: entry)?.uri == key.uri)
        }
    }

    /// A URI spelled another way than GLib would (scheme case, `localhost`, a dot segment,
    /// lowercase escapes) names the same file: Ready answers with the URI as asked, and the
    /// cache entry is the canonical one. A file URI of another host is not a local file.
    @Test func uriSpellingsNameTheSameCacheEntry() throws {
        try start()
        let path = files.file("spelled ü.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: path)
        let canonical = uri(path)
        #expect(canonical.hasSuffix("/spelled%20%C3%BC.pdf"))
        let spelled = "FILE://localhost" + canonical.dropFirst("file://".count)
            .replacingOccurrences(of: "/spelled%20%C3%BC.pdf", with: "/./spelled%20%c3%bc.pdf")
        let remote = "file://elsewhere" + canonical.dropFirst("file://".count)
        let handle = try #require(Self.handle(queue([spelled, remote])))
        #expect(waitFor("Finished", handle: handle))
        #expect(signals(handle).contains { $0.contains(".Ready ") && $0.contains(spelled) }, "\(signals(handle))")
        #expect(signals(handle).contains { $0.contains(".Error ") && $0.contains(remote) && $0.contains(", 1, ") },
                "\(signals(handle))")
        let key = try #require(ThumbnailKey(path: DocumentPath(path)))
        #expect(ThumbnailCache.metadata(at: cacheHome.file("thumbnails/normal/\(key.fileName)"))?.uri == canonical)
    }

    @Test func brokenAndUnknownFilesGetErrorSignalsAndTheServiceKeepsAnswering() throws {
        try start()
        let garbage = uri(Samples.path("garbage.pdf"))
        let missing = "file://" + files.file("missing.pdf")
        let remote = "http://example.invalid/x.png"
        let handle = try #require(Self.handle(queue([garbage, missing, remote])))
        #expect(waitFor("Finished", handle: handle))
        let errors = signals(handle).filter { $0.contains(".Error ") }
        #expect(errors.contains { $0.contains(garbage) && $0.contains(", 3, ") })
        #expect(errors.contains { $0.contains(missing) && $0.contains(", 2, ") })
        #expect(errors.contains { $0.contains(remote) && $0.contains(", 1, ") })
        #expect(!signals(handle).contains { $0.contains(".Ready ") })
        #expect(service?.isRunning == true)
        #expect(call("GetSchedulers", []).standardOutputText.contains("'foreground'"))
    }

    @Test func invalidArgumentsGetDBusErrors() throws {
        try start()
        let flavor = queue([uri(Samples.path("document.pdf"))], flavor: "huge")
        #expect(flavor.status != 0)
        #expect(flavor.standardError.contains("org.freedesktop.thumbnails.Thumbnailer1.Error.UnsupportedFlavor"))
        let scheduler = queue([uri(Samples.path("document.pdf"))], scheduler: "later")
        #expect(scheduler.standardError.contains("Error.UnsupportedScheduler"))
        let mismatched = call("Queue", ["['file:///a', 'file:///b']", "['text/plain']", "normal", "default", "0"])
        #expect(mismatched.standardError.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        #expect(service?.isRunning == true)
        let supported = call("GetSupported", [])
        #expect(supported.status == 0)
        #expect(supported.standardOutputText.contains("'application/pdf'"))
        #expect(supported.standardOutputText.contains("'file'"))
    }

    @Test func dequeueDropsAQueuedRequest() throws {
        // The first request hangs in its worker until the per-file timeout (2 s), so the
        // second one is still queued when it is dequeued.
        let slow = files.file("slow.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: slow)
        try start(extra: ["QUIRE_TEST_WORKER_HANG_ON": "slow.pdf"], timeout: 2)
        let first = try #require(Self.handle(queue([uri(slow)])))
        let second = try #require(Self.handle(queue([uri(Samples.path("quadrants.png"))])))
        #expect(call("Dequeue", [second]).status == 0)
        #expect(waitFor("Finished", handle: first, timeout: 30))
        #expect(signals(first).contains { $0.contains(".Error ") && $0.contains("slow.pdf") })
        usleep(1_000_000)
        #expect(signals(second).isEmpty, "a dequeued request never starts")
        let key = try #require(ThumbnailKey(path: DocumentPath(Samples.path("quadrants.png"))))
        #expect(!FileManager.default.fileExists(atPath: cacheHome.file("thumbnails/normal/\(key.fileName)")))
    }

    @Test func cacheDeleteRemovesEntries() throws {
        try start()
        let pdf = uri(Samples.path("document.pdf"))
        let handle = try #require(Self.handle(queue([pdf], flavor: "large")))
        #expect(waitFor("Finished", handle: handle))
        let key = try #require(ThumbnailKey(path: DocumentPath(Samples.path("document.pdf"))))
        let entry = cacheHome.file("thumbnails/large/\(key.fileName)")
        #expect(FileManager.default.fileExists(atPath: entry))
        let deleted = bus.call("org.freedesktop.thumbnails.Cache1", "/org/freedesktop/thumbnails/Cache1",
                               "org.freedesktop.thumbnails.Cache1.Delete", ["['\(pdf)']"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(!FileManager.default.fileExists(atPath: entry))
    }

    /// Cleanup over D-Bus: only entries of vanished files below `base_uris` go.
    @Test func cacheCleanupRemovesOnlyVanishedFilesBelowTheBase() throws {
        try start()
        try FileManager.default.createDirectory(atPath: files.file("keep"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: files.file("drop"), withIntermediateDirectories: true)
        let kept = files.file("keep/gone.pdf"), dropped = files.file("drop/gone.pdf"), present = files.file("drop/here.pdf")
        for path in [kept, dropped, present] { try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: path) }
        let handle = try #require(Self.handle(queue([uri(kept), uri(dropped), uri(present)])))
        #expect(waitFor("Finished", handle: handle))
        func entry(_ path: String) throws -> String {
            cacheHome.file("thumbnails/normal/\(try #require(ThumbnailKey(path: DocumentPath(path))).fileName)")
        }
        for path in [kept, dropped, present] { #expect(FileManager.default.fileExists(atPath: try entry(path))) }
        try FileManager.default.removeItem(atPath: kept)
        try FileManager.default.removeItem(atPath: dropped)
        let result = bus.call("org.freedesktop.thumbnails.Cache1", "/org/freedesktop/thumbnails/Cache1",
                              "org.freedesktop.thumbnails.Cache1.Cleanup", ["['\(uri(files.file("drop")))']", "0"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: try entry(dropped)))
        #expect(FileManager.default.fileExists(atPath: try entry(kept)))
        #expect(FileManager.default.fileExists(atPath: try entry(present)))
    }

    @Test func cacheMoveAndCopyFollowRenamedAndCopiedFiles() throws {
        try start()
        let original = files.file("before.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: original)
        let handle = try #require(Self.handle(queue([uri(original)])))
        #expect(waitFor("Finished", handle: handle))
        let before = try #require(ThumbnailKey(path: DocumentPath(original)))
        #expect(FileManager.default.fileExists(atPath: cacheHome.file("thumbnails/normal/\(before.fileName)")))

        // The file is renamed: Move re-keys the entry and rewrites Thumb::URI.
        let renamed = files.file("after.pdf")
        try FileManager.default.moveItem(atPath: original, toPath: renamed)
        let moved = bus.call("org.freedesktop.thumbnails.Cache1", "/org/freedesktop/thumbnails/Cache1",
                             "org.freedesktop.thumbnails.Cache1.Move", ["['\(before.uri)']", "['\(uri(renamed))']"])
        #expect(moved.status == 0, "\(moved.standardError)")
        let after = try #require(ThumbnailKey(path: DocumentPath(renamed)))
        let movedEntry = cacheHome.file("thumbnails/normal/\(after.fileName)")
        #expect(!FileManager.default.fileExists(atPath: cacheHome.file("thumbnails/normal/\(before.fileName)")))
        #expect(ThumbnailCache.metadata(at: movedEntry)?.uri == after.uri)

        // The file is copied: Copy leaves both entries.
        let copy = files.file("copy.pdf")
        try FileManager.default.copyItem(atPath: renamed, toPath: copy)
        let copied = bus.call("org.freedesktop.thumbnails.Cache1", "/org/freedesktop/thumbnails/Cache1",
                              "org.freedesktop.thumbnails.Cache1.Copy", ["['\(after.uri)']", "['\(uri(copy))']"])
        #expect(copied.status == 0, "\(copied.standardError)")
        let copyKey = try #require(ThumbnailKey(path: DocumentPath(copy)))
        #expect(ThumbnailCache.metadata(at: cacheHome.file("thumbnails/normal/\(copyKey.fileName)"))?.uri == copyKey.uri)
        #expect(FileManager.default.fileExists(atPath: movedEntry))

        // Mismatched lists are an argument error, and the service keeps answering.
        let bad = bus.call("org.freedesktop.thumbnails.Cache1", "/org/freedesktop/thumbnails/Cache1",
                           "org.freedesktop.thumbnails.Cache1.Move", ["['\(after.uri)']", "[]"])
        #expect(bad.standardError.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        #expect(call("GetFlavors", []).status == 0)
    }

    @Test func exitsWhenIdle() throws {
        try start(idleTimeout: 1)
        #expect(service?.waitForExit(timeout: 10) == true)
    }
}
