import Foundation
import Quire
import QuireTestSupport
import QuireViewer
import Testing

/// The kept signature (Markup's Sign): written atomically, the file 0600 in a 0700 folder,
/// read back as it was drawn (moved to its own box), placed at any size; a file that is not a
/// signature — garbage, another version, a folder — reads as "no signature yet", never a crash.
@Suite("Signature store")
struct SignatureStoreTests {
    @Test func aSignatureIsKeptPrivatelyAndReadBackAsDrawn() throws {
        let directory = TemporaryDirectory("quire-signature")
        let store = SignatureStore.standard(environment: ["XDG_DATA_HOME": directory.file("data"), "HOME": directory.path])
        #expect(store.path == directory.file("data") + "/quire/signatures/signature.json")
        #expect(store.load() == nil, "nothing kept yet")
        let drawn = [[PageAnnotation.Point(x: 110, y: 60), PageAnnotation.Point(x: 150, y: 40), PageAnnotation.Point(x: 190, y: 70)],
                     [PageAnnotation.Point(x: 120, y: 80), PageAnnotation.Point(x: 130, y: 80)]]
        let signature = try #require(SignatureStore.Signature(strokes: drawn))
        #expect(signature.width == 80 && signature.height == 40 && signature.strokes[0][0] == [0, 20])
        #expect(store.save(signature) == nil)
        #expect(store.load() == signature)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: directory.file("data") + "/quire/signatures")[.posixPermissions] as? Int == 0o700)
        // Placed 160 points wide around (300, 400): twice its size, its box centred there.
        let placed = signature.placed(centreX: 300, centreY: 400, width: 160)
        #expect(placed[0][0] == PageAnnotation.Point(x: 220, y: 400) && placed[0][2] == PageAnnotation.Point(x: 380, y: 420))
        #expect(SignatureStore.Signature(strokes: [[PageAnnotation.Point(x: 1, y: 1)]]) == nil, "one point is not a signature")
    }

    @Test(arguments: ["not json at all", "{\"version\": 2, \"signature\": {\"width\": 1, \"height\": 1, \"strokes\": []}}",
                      "{\"version\": 1, \"signature\": {\"width\": -5, \"height\": 1, \"strokes\": [[[0, 0]]]}}", "\u{0}\u{1}\u{2}"])
    func aFileThatIsNotASignatureReadsAsNone(content: String) throws {
        let directory = TemporaryDirectory("quire-signature")
        let store = SignatureStore(path: directory.file("signature.json"))
        try content.write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(store.load() == nil)
        // A folder where the file should be: not read, and saving says why in one line.
        let folderStore = SignatureStore(path: directory.path)
        #expect(folderStore.load() == nil)
        let signature = try #require(SignatureStore.Signature(strokes: [[PageAnnotation.Point(x: 0, y: 0), PageAnnotation.Point(x: 5, y: 5)]]))
        let failure = try #require(folderStore.save(signature))
        #expect(!failure.contains("\n") && !failure.isEmpty, "\(failure)")
        #expect(FileManager.default.fileExists(atPath: directory.path), "the folder is left as it was")
    }
}
