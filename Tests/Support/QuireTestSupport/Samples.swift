import Foundation

/// Locates the repository and its generated samples; generates them once if missing.
public enum Samples {
    /// The repository root (found from this file's location).
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var generated = false

    /// The generated samples directory, running `Samples/generate.sh` first if it is missing.
    public static var directory: URL {
        let dir = repositoryRoot.appendingPathComponent("Samples/generated")
        lock.lock()
        defer { lock.unlock() }
        if !generated {
            // infinite-loop.ps is among the last files generate.sh writes: an older or interrupted
            // sample set is regenerated.
            if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("document.pdf").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("infinite-loop.ps").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("fonts/collection.ttc").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("archives/bomb.zip").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("archives/folders.zip").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("page.djvu").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("media/long.webm").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("find-cases.pdf").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("table.tsv").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("tables/mixed-encoding.csv").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("data/shop.sqlite").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("forms/form-locked.pdf").path)
                || !FileManager.default.fileExists(atPath: dir.appendingPathComponent("animations/blank-first.gif").path)
                || (FileManager.default.isExecutableFile(atPath: "/usr/bin/soffice")
                    && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("office-report.docx").path)) {
                let script = repositoryRoot.appendingPathComponent("Samples/generate.sh").path
                let result = ProcessRunner.run([script], timeout: 300)
                precondition(result.status == 0, "Samples/generate.sh failed: \(result.standardError)")
            }
            generated = true
        }
        return dir
    }

    /// The path of one generated sample.
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
