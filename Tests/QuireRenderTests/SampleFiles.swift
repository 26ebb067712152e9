import Foundation
import QuireRender
import QuireTypes
import QuireTestSupport

/// Opening generated samples (QuireTestSupport runs Samples/generate.sh when they are missing).
enum SampleFiles {
    static func path(_ name: String) -> String { Samples.path(name) }

    static func open(_ name: String) throws -> InputFile {
        try InputFile(path: DocumentPath(path(name)))
    }

    static func renderer(_ name: String, password: String? = nil, limits: RenderLimits = .standard,
                         preferEmbeddedPreview: Bool = false, developRaw: Bool = false) throws -> Renderer {
        let file = try open(name)
        return try Renderer(file: file, contentType: try ContentType.detect(file), password: password, limits: limits,
                            preferEmbeddedPreview: preferEmbeddedPreview, developRaw: developRaw)
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
