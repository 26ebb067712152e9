import FoundationEssentials
import Quire

/// The person's signature for Markup's Sign: strokes drawn once with the pointer, kept in
/// `$XDG_DATA_HOME/quire/signatures/signature.json` (default `~/.local/share/quire/...`), mode
/// 0600 in a folder only its owner may enter, written atomically. A missing, unreadable or
/// malformed file means "no signature yet", never an error.
public struct SignatureStore: Sendable {
    /// Strokes in a box of `width` × `height` points from its top left, y down: the strokes'
    /// own bounds, as drawn on the pad.
    public struct Signature: Sendable, Hashable, Codable {
        public var width: Double
        public var height: Double
        /// Each stroke's points as [x, y] pairs.
        public var strokes: [[[Double]]]

        /// The strokes as drawn (any origin), moved to their own box; nil without two points.
        public init?(strokes drawn: [[PageAnnotation.Point]]) {
            let annotation = PageAnnotation(kind: .ink, page: 0, boxes: [], strokes: drawn.filter { !$0.isEmpty })
            guard let bounds = annotation.strokeBounds, drawn.joined().count >= 2 else { return nil }
            width = max(1, bounds.width)
            height = max(1, bounds.height)
            strokes = annotation.strokes.map { $0.map { [$0.x - bounds.x, $0.y - bounds.y] } }
        }

        /// The strokes fitted into the top `share` of `box` (a digital signature's box, whose
        /// bottom line says who signed): nine tenths of its width or of that height at most,
        /// centred there.
        public func fitted(in box: PageAnnotation.Box, share: Double) -> [[PageAnnotation.Point]] {
            let room = (width: box.width * 0.9, height: box.height * share * 0.9)
            let placedWidth = max(1, min(room.width, room.height * width / height))
            return placed(centreX: box.x + box.width / 2, centreY: box.y + box.height * share / 2, width: placedWidth)
        }

        /// The strokes placed on a page: `width` points wide (the height in proportion), the
        /// box's centre at (`x`, `y`).
        public func placed(centreX x: Double, centreY y: Double, width placedWidth: Double) -> [[PageAnnotation.Point]] {
            let scale = placedWidth / width
            let left = x - placedWidth / 2, top = y - height * scale / 2
            return strokes.map { stroke in
                stroke.compactMap { pair in pair.count == 2 ? PageAnnotation.Point(x: left + pair[0] * scale, y: top + pair[1] * scale) : nil }
            }
        }
    }

    private struct StoredFile: Codable {
        var version: Int
        var signature: Signature
    }

    /// The signature file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The per-user store, under `$XDG_DATA_HOME` (else `$HOME/.local/share`).
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SignatureStore {
        SignatureStore(path: PrivateJSONFile<StoredFile>.base("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
                       + "/quire/signatures/signature.json")
    }

    /// The saved signature, nil when there is none (or it cannot be read).
    public func load() -> Signature? {
        guard let stored = PrivateJSONFile<StoredFile>(path: path).load(),
              stored.version == 1, stored.signature.width > 0, stored.signature.height > 0,
              stored.signature.strokes.joined().count <= PageAnnotation.maximumInkPoints else { return nil }
        return stored.signature
    }

    /// Keeps `signature` (replacing the one before). Returns nil on success, else why not.
    @discardableResult
    public func save(_ signature: Signature) -> String? {
        PrivateJSONFile<StoredFile>(path: path).save(StoredFile(version: 1, signature: signature), what: "the signature")
    }
}
