/// One command-line form, described rather than hand-parsed: the word that names it, the options
/// it takes (each with the kind of value it wants), and its operands. ``parse(_:)`` reads a whole
/// `argv` (as bytes: file names need not be UTF-8) against it and either returns what was given
/// or says what did not fit (``ArgumentMismatch``), at the first word that did not.
///
/// `quire` describes the command lines it answers without swift-argument-parser this way
/// (anything that does not fit goes to the parser, which validates and reports as always), and
/// `quire-look` its whole command line (where a mismatch is the error it reports). The rules:
///
/// - Options come anywhere before a `--` the form accepts; a word starting with `-` that names
///   none of them (a lone `-` included) is an unknown option.
/// - An option's value is the next word, or with ``ArgumentOption/attachedValue`` part of the
///   same word (`-s128`, `--size=128`); ``ArgumentValue`` says which words are values.
/// - An option given twice is a mismatch unless it is ``ArgumentOption/repeatable``.
/// - Every other word is an operand, as the bytes given; ``ArgumentOperands`` says how many, and
///   whether `--` ends the options (after it every word is an operand).
package struct ArgumentForm: Sendable {
    /// The word after the program's name that selects the form (`thumbnail`, `--service`); nil
    /// when the form begins with its options and operands.
    package var command: String?
    package var options: [ArgumentOption]
    package var operands: ArgumentOperands

    package init(command: String? = nil, options: [ArgumentOption] = [], operands: ArgumentOperands) {
        self.command = command
        self.options = options
        self.operands = operands
    }

    /// Whether `arguments` (a whole `argv`) names this form: its command word is `arguments[1]`
    /// (a form without one is named by any `argv`).
    package func isNamed(by arguments: [[UInt8]]) -> Bool {
        guard let command else { return true }
        return arguments.count >= 2 && arguments[1].elementsEqual(command.utf8)
    }

    /// Reads `arguments`, a whole `argv`: the program's name, the command word if the form has
    /// one, then options and operands.
    package func parse(_ arguments: [[UInt8]]) throws(ArgumentMismatch) -> ParsedArguments {
        guard isNamed(by: arguments) else { throw .otherCommand }
        var parsed = ParsedArguments(options: options)
        var index = 1
        if case .some = command { index = 2 }   // (not `command == nil`: that copies the optional through its metadata)
        var endOfOptions = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if operands.uninterpreted || endOfOptions {
                parsed.operands.append(word)
                continue
            }
            if operands.terminator, word.elementsEqual("--".utf8) {
                endOfOptions = true
                continue
            }
            guard word.first == UInt8(ascii: "-") else {
                parsed.operands.append(word)
                continue
            }
            let (option, attached) = try match(word)
            let description = options[option]
            if !description.repeatable, parsed.given.contains(option) {
                throw .repeated(option: description.names[0])
            }
            let value: [UInt8]
            if case .none = description.value {
                // A flag takes no value, attached or not.
                if let attached {
                    throw .invalidValue(option: description.names[0], value: attached, needs: description.needs)
                }
                value = []
            } else if let attached {
                value = attached
            } else {
                guard index < arguments.count else {
                    throw .missingValue(option: description.names[0], needs: description.needs)
                }
                value = arguments[index]
                index += 1
            }
            guard description.value.accepts(value) else {
                throw .invalidValue(option: description.names[0], value: value, needs: description.needs)
            }
            parsed.append(option: option, value: value)
        }
        guard operands.count.contains(parsed.operands.count) else {
            throw .operandCount(given: parsed.operands.count, expected: operands.count, name: operands.name)
        }
        return parsed
    }

    /// The option `word` names, and the value attached to it (`-s128`, `--size=128`) if any.
    private func match(_ word: [UInt8]) throws(ArgumentMismatch) -> (option: Int, attached: [UInt8]?) {
        for (index, option) in options.enumerated() {
            for name in option.names where word.elementsEqual(name.utf8) {
                return (index, nil)
            }
        }
        for (index, option) in options.enumerated() where option.attachedValue {
            for name in option.names {
                let prefix = Array(name.utf8)
                if prefix.count > 2 {
                    // --size=128
                    if word.count > prefix.count, word.starts(with: prefix), word[prefix.count] == UInt8(ascii: "=") {
                        return (index, Array(word[(prefix.count + 1)...]))
                    }
                } else if word.count > prefix.count, word.starts(with: prefix) {
                    // -s128
                    return (index, Array(word[prefix.count...]))
                }
            }
        }
        throw .unknownOption(word)
    }
}
