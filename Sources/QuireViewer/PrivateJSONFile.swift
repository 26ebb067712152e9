import FoundationEssentials
import Quire

/// A small per-user JSON file a viewer keeps (where each file was left, the person's
/// signature): read whole, up to 4 MB — a missing, unreadable or malformed file reads as
/// nothing, never an error —, written atomically (temporary file and rename) with mode 0600 in
/// a folder only its owner may enter.
struct PrivateJSONFile<Stored: Codable>: Sendable {
    let path: String

    /// The folder named by the XDG variable `variable` when it is absolute, else `fallback`
    /// under the home folder, as the XDG base directory specification says.
    static func base(_ variable: String, fallback: String, environment: [String: String]) -> String {
        let base = environment[variable] ?? ""
        return base.hasPrefix("/") ? base : DirectoryPath.home(environment["HOME"]) + "/" + fallback
    }

    /// What the file holds; nil when there is no such file or it is not one of these.
    func load() -> Stored? {
        guard let file = try? InputFile(path: DocumentPath(path), maximumSize: 4 << 20),
              let bytes = try? file.read(upTo: Int(file.size)) else { return nil }
        return try? JSONDecoder().decode(Stored.self, from: Data(bytes))
    }

    /// Replaces the file with `value` (`what` names it in a message). Returns nil on success,
    /// else why not, one line.
    func save(_ value: Stored, sortedKeys: Bool = false, what: String) -> String? {
        let folder = DirectoryPath.parent(of: path)
        if let failure = DirectoryPath.create(folder, permissions: .ownerAll) {
            return "cannot create \(folder): \(failure)"
        }
        let encoder = JSONEncoder()
        if sortedKeys { encoder.outputFormatting = [.sortedKeys] }
        do {
            let data = try encoder.encode(value)
            try OutputFile.write(Array(data), to: DocumentPath(path), permissions: 0o600)
            return nil
        } catch let error as OutputError {
            return error.description
        } catch {
            return "cannot encode \(what): \(error)"
        }
    }
}
