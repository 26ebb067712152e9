#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireSystem

/// The other end of ``PageRenderProcess``: reads `render PAGE WIDTH HEIGHT PASSWORD-HEX PATH-HEX`
/// lines and answers `ok WIDTH HEIGHT` followed by the RGBA pixels, or `error KIND MESSAGE-HEX`.
/// The last document stays open between requests. Ends at end of input, and when the viewer
/// that started it dies (PR_SET_PDEATHSIG).
public enum PageRenderServer {
    public static func serve(input: FileDescriptor = .standardInput, output: FileDescriptor = .standardOutput,
                             limits: RenderLimits = .standard) -> Int32 {
        try? ProcessControl.setParentDeathSignal(SIGKILL)  // die with the viewer
        MallocTuning.returnLargeBlocksToTheSystem()  // page buffers back to the system when freed
        if getppid() == 1 { return 1 }
        var pending: [UInt8] = []
        var openKey: [UInt8] = []
        var renderer: Renderer?
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            guard let newline = pending.firstIndex(of: 0x0A) else {
                guard let count = chunk.withUnsafeMutableBytes({ try? input.read(into: $0) }), count > 0 else { return 0 }
                pending += chunk[..<count]
                if pending.count > 1 << 20 { return 1 }
                continue
            }
            let line = Array(pending[..<newline])
            pending.removeSubrange(...newline)
            let fields = line.split(separator: 0x20, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 6, fields[0] == "render", let page = Int(fields[1]), let width = Int(fields[2]),
                  let height = Int(fields[3]), let path = unhex(Substring(fields[5])), width > 0, height > 0 else {
                return 1
            }
            let password = fields[4] == "-" ? nil : unhex(Substring(fields[4])).map { String(decoding: $0, as: UTF8.self) }
            var answer: [UInt8]
            var pixels: [UInt8] = []
            do {
                let key = Array((fields[4] + " " + fields[5]).utf8)
                if renderer == nil || key != openKey {
                    renderer = nil
                    let document = try Document(path: DocumentPath(bytes: path), limits: limits)
                    renderer = try document.renderer(password: password)
                    openKey = key
                }
                let image = try renderer!.render(page: page, size: .fit(width: width, height: height), allowUpscaling: true)
                // The pixels go out as they are (not appended to the line: a page is megabytes).
                answer = Array("ok \(image.width) \(image.height)\n".utf8)
                pixels = image.pixels
            } catch let error as DocumentError {
                let problem = ViewerProblem(error, passwordGiven: password != nil)
                answer = Array("error \(problem.kind.rawValue) \(hex(Array(problem.message.utf8)))\n".utf8)
            } catch let error as InputError {
                let problem = ViewerProblem(error)
                answer = Array("error \(problem.kind.rawValue) \(hex(Array(problem.message.utf8)))\n".utf8)
            } catch {
                answer = Array("error damaged \(hex(Array("\(error)".utf8)))\n".utf8)
            }
            do {
                try output.writeAll(answer)
                if !pixels.isEmpty { try output.writeAll(pixels) }
            } catch { return 1 }
        }
    }

    static func hex(_ bytes: [UInt8]?) -> String {
        guard let bytes else { return "-" }
        if bytes.isEmpty { return "=" }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func unhex(_ text: Substring) -> [UInt8]? {
        if text == "=" { return [] }
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
