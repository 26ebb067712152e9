// A tiny program using the Quire library's rendering API: writes a 256-pixel freedesktop
// thumbnail and a small preview of the first page of each file.
//   swift run thumbnail-sample Samples/generated/document.pdf /tmp
import Foundation
import Quire

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: thumbnail-sample FILE... OUTPUT-DIRECTORY\n".utf8))
    exit(64)
}
let outputDirectory = arguments.last!
var failed = false
for argument in arguments.dropLast() {
    do {
        let document = try Document(url: URL(fileURLWithPath: argument))
        let name = URL(fileURLWithPath: argument).lastPathComponent

        // The freedesktop thumbnail: longest side 256, with Thumb::URI, Thumb::MTime, … chunks.
        let thumbnail = try await document.thumbnail(size: 256, software: "thumbnail-sample")
        try OutputFile.write(thumbnail.png, to: DocumentPath("\(outputDirectory)/\(name).thumbnail.png"))

        // A preview of page 1 fitted in 640×480.
        let preview = try await document.preview(page: 0, size: .fit(width: 640, height: 480))
        try OutputFile.write(try PNGEncoder.encode(preview), to: DocumentPath("\(outputDirectory)/\(name).preview.png"))

        let centre = preview.pixel(x: preview.width / 2, y: preview.height / 2)
        print("\(name): \(document.contentType.localizedDescription); thumbnail \(thumbnail.image.width)×\(thumbnail.image.height), preview \(preview.width)×\(preview.height), centre \(centre)")
    } catch {
        FileHandle.standardError.write(Data("thumbnail-sample: \(error)\n".utf8))
        failed = true
    }
}
exit(failed ? 1 : 0)
