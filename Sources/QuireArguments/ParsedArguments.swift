/// What ``ArgumentForm/parse(_:)`` read: the operands, and each option given with its value, in
/// the order given. Options are asked for by any of their names.
package struct ParsedArguments: Sendable {
    package let options: [ArgumentOption]
    /// The operands, as the bytes given.
    package internal(set) var operands: [[UInt8]] = []
    /// Each option given, in order: its index in `options`, and its value (empty for a flag).
    /// (Two arrays of types every start already has, not one of a struct: the first array of a
    /// new element type costs ~15 k instructions of metadata instantiation.)
    var given: [Int] = []
    var values: [[UInt8]] = []

    init(options: [ArgumentOption]) {
        self.options = options
    }

    mutating func append(option: Int, value: [UInt8]) {
        given.append(option)
        values.append(value)
    }

    /// The option's values in the order given (a flag's are empty).
    package func values(_ name: String) -> [[UInt8]] {
        let option = index(name)
        return given.indices.filter { given[$0] == option }.map { values[$0] }
    }

    /// How many times the option was given.
    package func count(_ name: String) -> Int {
        let option = index(name)
        return given.reduce(0) { $0 + ($1 == option ? 1 : 0) }
    }

    /// Whether the option (a flag, or an option with a value) was given.
    package func isSet(_ name: String) -> Bool { count(name) > 0 }

    /// The option's last value, as given.
    package func value(_ name: String) -> [UInt8]? {
        let option = index(name)
        return given.lastIndex(of: option).map { values[$0] }
    }

    /// The option's last value as text (bytes that are not UTF-8 replaced, as `String(decoding:)` does).
    package func text(_ name: String) -> String? {
        value(name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The last value of an ``ArgumentValue/integer(_:)`` option.
    package func integer(_ name: String) -> Int? {
        value(name).flatMap(ArgumentValue.integer)
    }

    /// The last value of an ``ArgumentValue/number(minimum:)`` option.
    package func number(_ name: String) -> Double? {
        value(name).flatMap(ArgumentValue.number)
    }

    private func index(_ name: String) -> Int {
        guard let index = options.firstIndex(where: { $0.names.contains(name) }) else {
            preconditionFailure("the form has no option \(name)")
        }
        return index
    }
}
