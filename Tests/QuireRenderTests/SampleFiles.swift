import Foundation
import QuireRender
import QuireTypes

/// The generated sample set (Samples/generated), created on first use by running
/// Samples/generate.sh when it is missing or incomplete.
enum SampleFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = root.appendingPathComponent("Samples/generated")

    /// Runs the generator once per test process (thread-safe lazy static).
    static let ready: Bool = {
        let marker = directory.appendingPathComponent("garbage.ps")
        let newest = directory.appendingPathComponent("thousand-pages.pdf")
        if FileManager.default.fileExists(atPath: marker.path) && FileManager.default.fileExists(atPath: newest.path) {
            return true
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("Samples/generate.sh").path]
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static func path(_ name: String) -> String {
        precondition(ready, "Samples/generate.sh failed")
        return directory.appendingPathComponent(name).path
    }

    static func open(_ name: String) throws -> InputFile {
        try InputFile(path: DocumentPath(path(name)))
    }

    static func renderer(_ name: String, password: String? = nil, limits: RenderLimits = .standard) throws -> Renderer {
        let file = try open(name)
        return try Renderer(file: file, contentType: try ContentType.detect(file), password: password, limits: limits)
    }

    /// A temporary directory removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension RenderedImage.Pixel {
    /// Within `tolerance` of an opaque colour (JPEG and antialiasing are not exact).
    func isClose(to red: UInt8, _ green: UInt8, _ blue: UInt8, tolerance: Int = 24) -> Bool {
        abs(Int(self.red) - Int(red)) <= tolerance && abs(Int(self.green) - Int(green)) <= tolerance
            && abs(Int(self.blue) - Int(blue)) <= tolerance && alpha == 255
    }
}
