import FoundationEssentials

extension InfoRecord {
    /// `info --json`'s array written one object at a time, as each file is described: the same
    /// text as ``InfoRecord/encode(_:)`` of the whole array, and a run that ends early (a file
    /// out of time) can still close it (``closingTail(_:)``).
    final class ArrayWriter {
        private var count = 0

        /// Writes `record` as the array's next object.
        func write(_ record: InfoRecord) throws {
            Terminal.out(try next(record))
            count += 1
        }

        /// Ends the array (an empty one when nothing was written).
        func close() {
            Terminal.out(count == 0 ? "[]\n" : "\n]\n")
        }

        /// The bytes that end the array with `record` as its next and last object.
        func closingTail(_ record: InfoRecord) throws -> [UInt8] {
            Array((try next(record) + "\n]\n").utf8)
        }

        /// `record` as an element of the array, after what opens the array or separates it
        /// from the object before: the whole array encoded with only this element, its brackets
        /// taken off, so that the indentation is the encoder's own.
        private func next(_ record: InfoRecord) throws -> String {
            let single = try InfoRecord.encode([record])
            guard single.hasPrefix("[\n"), single.hasSuffix("\n]") else {
                throw EncodingError.invalidValue(record, EncodingError.Context(codingPath: [], debugDescription: "not an array's one element"))
            }
            let element = single.dropFirst(2).dropLast(2)
            return (count == 0 ? "[\n" : ",\n") + element
        }
    }
}
