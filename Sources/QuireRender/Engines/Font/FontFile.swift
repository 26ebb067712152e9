internal import CFontconfig
import QuireTypes

/// A font file's faces, read by fontconfig into a private configuration that holds this file
/// alone (never the system's fonts), with the facts the `name` and `maxp` tables add. What
/// `info` shows of a font, and what ``FontSource`` draws its specimens from.
final class FontFile {
    let faces: [FontFace]
    /// One FcPattern per face, owned by `configuration`.
    let patterns: [OpaquePointer]
    /// The private FcConfig*; destroyed with this object.
    let configuration: OpaquePointer
    private let fontconfig: quire_fontconfig_api
    /// What fontconfig opened, kept until the configuration is destroyed (a ``FontCopy``).
    private let backing: AnyObject?

    /// Faces read from one collection at most.
    static let maximumFaces = 256

    /// - Parameter copy: fontconfig reads this copy of the file (the specimen's: see
    ///   ``FontCopy``), else the open descriptor (for facts only: nothing is drawn).
    init(file: InputFile, copy: FontCopy? = nil, limits: RenderLimits) throws(DocumentError) {
        let fontconfig = try LazyLibraries.fontconfig(file.path)
        self.fontconfig = fontconfig
        backing = copy
        guard let configuration = fontconfig.FcConfigCreate() else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "fontconfig could not create a configuration")
        }
        // By the open descriptor or a private copy: the file read is the one that was typed.
        let opened = copy?.path ?? file.procPath
        guard fontconfig.FcConfigAppFontAddFile(configuration, opened) != 0,
              let set = fontconfig.FcConfigGetFonts(configuration, FcSetName(rawValue: UInt32(quire_fc_set_application))),
              set.pointee.nfont > 0, let fonts = set.pointee.fonts else {
            fontconfig.FcConfigDestroy(configuration)
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable font (FreeType cannot open it)")
        }
        self.configuration = configuration
        var tableBytes: [UInt8] = []
        do throws(InputError) {
            tableBytes = try file.read(upTo: Int(min(file.size, Int64(limits.maximumInflatedBytes))))
        } catch {}
        let tables = SFNTTables.faces(in: tableBytes)

        // One pattern per face index (a variable font also lists its named instances: the
        // default instance stands for them).
        var seen = Set<Int32>()
        var patterns: [OpaquePointer] = []
        var faces: [FontFace] = []
        for slot in 0..<Int(set.pointee.nfont) {
            guard let pattern = fonts[slot] else { continue }
            var index: Int32 = 0
            _ = fontconfig.FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
            let face = index & 0xFFFF
            guard !seen.contains(face) else { continue }
            seen.insert(face)
            patterns.append(pattern)
            var facts = Self.facts(of: pattern, fontconfig: fontconfig,
                                   tables: tables.indices.contains(Int(face)) ? tables[Int(face)] : nil)
            // Without a readable `name` table fontconfig names the family after the file it
            // opened — here the descriptor's number: use the document's own name instead.
            if facts.family.isEmpty || facts.family == opened.split(separator: "/").last.map(String.init) {
                facts.family = file.path.displayName.split(separator: ".").first.map(String.init) ?? file.path.displayName
            }
            faces.append(facts)
            if faces.count == Self.maximumFaces { break }
        }
        self.patterns = patterns
        self.faces = faces
    }

    deinit {
        fontconfig.FcConfigDestroy(configuration)
    }

    private static func facts(of pattern: OpaquePointer, fontconfig: quire_fontconfig_api, tables: SFNTTables.Face?) -> FontFace {
        func string(_ key: String) -> String? {
            var value: UnsafeMutablePointer<FcChar8>?
            guard fontconfig.FcPatternGetString(pattern, key, 0, &value) == FcResultMatch, let value else { return nil }
            return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
        }
        var charset: OpaquePointer?
        var scripts: [String] = []
        var characters = 0
        if fontconfig.FcPatternGetCharSet(pattern, FC_CHARSET, 0, &charset) == FcResultMatch, let charset {
            characters = Int(fontconfig.FcCharSetCount(charset))
            scripts = FontScript.all.filter { script in script.probe.allSatisfy { fontconfig.FcCharSetHasChar(charset, $0) != 0 } }.map(\.name)
        }
        var variable: FcBool = 0, symbol: FcBool = 0
        _ = fontconfig.FcPatternGetBool(pattern, FC_VARIABLE, 0, &variable)
        // A symbol font (a Microsoft symbol cmap: Dingbats, Wingdings) maps letters to its
        // pictures; it covers no writing system.
        if fontconfig.FcPatternGetBool(pattern, FC_SYMBOL, 0, &symbol) == FcResultMatch, symbol != 0 { scripts = [] }
        var revision: Int32 = 0
        let fallbackVersion: String? = fontconfig.FcPatternGetInteger(pattern, FC_FONTVERSION, 0, &revision) == FcResultMatch && revision > 0
            ? "Version \(Double((Double(revision) / 65.536).rounded()) / 1000)" : nil
        return FontFace(family: string(FC_FAMILY) ?? "Unnamed font", style: string(FC_STYLE),
                        version: tables?.version ?? fallbackVersion, designer: tables?.designer,
                        manufacturer: tables?.manufacturer, glyphCount: tables?.glyphCount,
                        characterCount: characters, scripts: scripts, format: string(FC_FONTFORMAT),
                        isVariable: variable != 0, isSymbol: symbol != 0)
    }
}
