#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire

/// The freedesktop thumbnailer contract, `quire thumbnail [-s SIZE] INPUT OUTPUT`, read straight
/// from `argv` without building the full command tree.
///
/// File managers start one process per thumbnail, so start-up is most of the cost of a small
/// one; the argument parser's reflection over every command and option took more time than
/// rendering a page. This reads only the exact contract form and returns nil for anything else
/// (another option, a flavor name, `--`, an argument starting with `-`, a limit set in the
/// environment), which the full parser then handles, with the same validation and messages.
/// Both paths write the thumbnail through ``ThumbnailCommand/writeSingle(input:output:size:password:maximumFileSize:limits:timeout:)``.
enum ThumbnailFastPath {
    /// The exit status when `arguments` (the whole `argv`, as bytes) is the contract form and
    /// the thumbnail was attempted; nil to use the full parser.
    static func run(_ arguments: [[UInt8]]) -> ExitStatus? {
        guard let request = parse(arguments) else { return nil }
        return ThumbnailCommand.writeSingle(
            input: request.input, output: request.output, size: request.size, password: nil,
            maximumFileSize: LimitOptions.defaultMaximumFileSize, limits: .standard,
            timeout: ThumbnailBatchOptions.defaultTimeout)
    }

    struct Request: Equatable {
        var size: Int
        var input: [UInt8]
        var output: [UInt8]
    }

    /// The request, or nil when `arguments` is not exactly `quire thumbnail [-s N] IN OUT`
    /// with N in 1…4096 and no limit variables in the environment.
    static func parse(_ arguments: [[UInt8]], environment: (String) -> String? = Terminal.environment) -> Request? {
        guard arguments.count >= 4, arguments[1] == Array("thumbnail".utf8) else { return nil }
        for limit in Limit.allCases {
            if let value = environment(limit.environmentVariable), !value.isEmpty { return nil }
        }
        var size: Int?
        var positional: [[UInt8]] = []
        var index = 2
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.first == UInt8(ascii: "-") else {
                positional.append(argument)
                continue
            }
            let value: ArraySlice<UInt8>
            if argument == Array("-s".utf8) || argument == Array("--size".utf8) {
                guard index < arguments.count else { return nil }
                value = arguments[index][...]
                index += 1
            } else if argument.starts(with: "--size=".utf8) {
                value = argument.dropFirst(7)
            } else if argument.count > 2, argument.starts(with: "-s".utf8) {
                value = argument.dropFirst(2)
            } else {
                return nil
            }
            guard size == nil, let number = decimal(value) else { return nil }
            size = number
        }
        let pixels = size ?? 256
        guard positional.count == 2, (1...4096).contains(pixels) else { return nil }
        return Request(size: pixels, input: positional[0], output: positional[1])
    }

    /// A plain decimal number of at most four digits, or nil.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 4 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}
