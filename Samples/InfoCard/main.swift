// A tiny program using the Quire library: prints a one-line summary per file.
//   swift run info-card Samples/generated/document.pdf
import Foundation
import Quire

let paths = CommandLine.arguments.dropFirst()
if paths.isEmpty {
    FileHandle.standardError.write(Data("usage: info-card FILE...\n".utf8))
    exit(64)
}
var failed = false
for argument in paths {
    do {
        let document = try Document(url: URL(fileURLWithPath: argument))
        let info = try document.info()
        var line = "\(info.name): \(info.contentType.localizedDescription), \(info.formattedSize)"
        if let pages = info.pdf?.pageCount { line += ", \(pages) page\(pages == 1 ? "" : "s")" }
        if let image = info.image { line += ", \(image.width)×\(image.height)" }
        line += info.capabilities.print.isSupported ? ", printable content" : ", content cannot be printed"
        print(line)
    } catch {
        FileHandle.standardError.write(Data("info-card: \(error)\n".utf8))
        failed = true
    }
}
exit(failed ? 1 : 0)
