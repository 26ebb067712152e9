#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How code units are read from the mapped bytes: one byte (UTF-8, Latin-1) or a UTF-16 unit in
/// either byte order. The scanner is generic over it so that each loop is compiled for one width.
protocol TableUnits {
    static var width: Int { get }
    static func unit(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16
}

enum NarrowUnits: TableUnits {
    static var width: Int { 1 }
    @inline(__always) static func unit(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16 {
        UInt16(base.load(fromByteOffset: offset, as: UInt8.self))
    }
}

enum LittleEndianUnits: TableUnits {
    static var width: Int { 2 }
    @inline(__always) static func unit(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16 {
        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}

enum BigEndianUnits: TableUnits {
    static var width: Int { 2 }
    @inline(__always) static func unit(_ base: UnsafeRawPointer, _ offset: Int) -> UInt16 {
        UInt16(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}

/// One record (row) found in the file.
enum TableRecord: Equatable {
    /// The record's bytes (without its line end) and where the next one starts.
    case row(Range<Int>, next: Int)
    /// The record runs on for more than ``TableScanner/maximumRecordBytes`` from `start` (a
    /// gigabyte line, or a quote never closed): the table stops before it.
    case tooLong(start: Int)
}

/// RFC 4180 records and cells over a mapped file: a record ends at LF, CRLF or CR outside
/// quotes; a cell that starts with a quote runs to the matching quote (doubled quotes inside
/// are one quote; separators and line ends inside are text); a quote elsewhere is text.
struct TableScanner {
    static let quote: UInt16 = 0x22
    static let lineFeed: UInt16 = 0x0A
    static let carriageReturn: UInt16 = 0x0D
    /// Longest record read as one row (a gigabyte line is not a row: the table ends there).
    static let maximumRecordBytes = 1 << 20
    /// Most cells read of one row (more are dropped).
    static let maximumCells = 1024
    /// Most code units kept of one cell (longer cells are cut and end with "…").
    static let maximumCellUnits = 4096

    let bytes: UnsafeRawBufferPointer
    let encoding: TableEncoding
    let delimiter: UInt16
    /// Where records start (after a byte-order mark) and end (whole units only).
    let start: Int
    let end: Int

    init(bytes: UnsafeRawBufferPointer, encoding: TableEncoding, delimiter: UInt16) {
        self.bytes = bytes
        self.encoding = encoding
        self.delimiter = delimiter
        start = min(encoding.markLength, bytes.count)
        end = start + (bytes.count - start) / encoding.unitWidth * encoding.unitWidth
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    /// The record that starts at `offset`, nil at the end of the file.
    func record(from offset: Int) -> TableRecord? {
        guard offset < end, let base = bytes.baseAddress else { return nil }
        switch encoding {
        case .utf16LittleEndian: return record(LittleEndianUnits.self, base, offset)
        case .utf16BigEndian: return record(BigEndianUnits.self, base, offset)
        case .utf8, .utf8WithBOM, .latin1: return plainLine(base, offset) ?? record(NarrowUnits.self, base, offset)
        }
    }

    /// The common case, found with `memchr` (vectorised): a line with no quote in it, ended by
    /// LF or CRLF, is one record. Nil when the line needs the state machine (a quote, a lone
    /// CR, no line end within the record limit).
    @inline(__always)
    private func plainLine(_ base: UnsafeRawPointer, _ offset: Int) -> TableRecord? {
        let limit = min(end, offset + Self.maximumRecordBytes)
        guard let found = memchr(base + offset, 0x0A, limit - offset) else { return nil }
        let lineEnd = UnsafeRawPointer(found) - base
        guard memchr(base + offset, 0x22, lineEnd - offset) == nil else { return nil }
        var contentEnd = lineEnd
        if let carriage = memchr(base + offset, 0x0D, lineEnd - offset) {
            guard UnsafeRawPointer(carriage) - base == lineEnd - 1 else { return nil }
            contentEnd = lineEnd - 1
        }
        return .row(offset..<contentEnd, next: lineEnd + 1)
    }

    @inline(__always)
    private func record<Units: TableUnits>(_: Units.Type, _ base: UnsafeRawPointer, _ offset: Int) -> TableRecord {
        let width = Units.width
        let limit = min(end, offset + Self.maximumRecordBytes)
        var state = State.fieldStart
        var index = offset
        while index < limit {
            let unit = Units.unit(base, index)
            switch state {
            case .quoted:
                if unit == Self.quote { state = .quoteInQuoted }
            case .quoteInQuoted:
                if unit == Self.quote {
                    state = .quoted
                } else if unit == delimiter {
                    state = .fieldStart
                } else if unit == Self.lineFeed || unit == Self.carriageReturn {
                    return .row(offset..<index, next: lineEnd(Units.self, base, index, unit))
                } else {
                    state = .unquoted  // `"a"b`: the rest is text
                }
            case .fieldStart, .unquoted:
                if unit == delimiter {
                    state = .fieldStart
                } else if unit == Self.lineFeed || unit == Self.carriageReturn {
                    return .row(offset..<index, next: lineEnd(Units.self, base, index, unit))
                } else if unit == Self.quote && state == .fieldStart {
                    state = .quoted
                } else {
                    state = .unquoted
                }
            }
            index += width
        }
        if limit < end { return .tooLong(start: offset) }
        return .row(offset..<end, next: end)
    }

    /// Where the record after a line end at `index` starts (past CRLF as one end).
    @inline(__always)
    private func lineEnd<Units: TableUnits>(_: Units.Type, _ base: UnsafeRawPointer, _ index: Int, _ unit: UInt16) -> Int {
        let next = index + Units.width
        if unit == Self.carriageReturn, next < end, Units.unit(base, next) == Self.lineFeed { return next + Units.width }
        return next
    }

    /// The bytes of cell `column` of the record in `range`, straight from the mapping, when
    /// the file is UTF-8 and the record holds no quote (every cell is its bytes between
    /// separators): what a sort reads for its keys without decoding the row. Nil otherwise
    /// (read ``cells(_:)``); an empty buffer when the row has fewer cells.
    func plainCell(_ range: Range<Int>, column: Int) -> UnsafeRawBufferPointer? {
        guard encoding == .utf8 || encoding == .utf8WithBOM, let base = bytes.baseAddress,
              memchr(base + range.lowerBound, 0x22, range.count) == nil else { return nil }
        let separator = Int32(truncatingIfNeeded: delimiter)
        var start = range.lowerBound
        for _ in 0..<column {
            guard let found = memchr(base + start, separator, range.upperBound - start) else {
                return UnsafeRawBufferPointer(start: base, count: 0)
            }
            start = UnsafeRawPointer(found) - base + 1
        }
        let end = memchr(base + start, separator, range.upperBound - start).map { UnsafeRawPointer($0) - base } ?? range.upperBound
        return UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// The record's bytes when the file is UTF-8 and they are ASCII without a quote (each cell
    /// is its bytes between separators, no decoding needed); nil otherwise.
    func plainASCII(_ range: Range<Int>) -> UnsafeRawBufferPointer? {
        guard encoding == .utf8 || encoding == .utf8WithBOM, let base = bytes.baseAddress else { return nil }
        let record = UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
        guard memchr(base + range.lowerBound, 0x22, range.count) == nil, !record.contains(where: { $0 >= 0x80 }) else { return nil }
        return record
    }

    /// The cells of the record in `range`, unquoted and decoded (at most ``maximumCells``).
    func cells(_ range: Range<Int>) -> [String] {
        guard let base = bytes.baseAddress else { return [] }
        switch encoding {
        case .utf16LittleEndian: return cells(LittleEndianUnits.self, base, range)
        case .utf16BigEndian: return cells(BigEndianUnits.self, base, range)
        case .utf8, .utf8WithBOM, .latin1: return narrowCells(base, range)
        }
    }

    /// Cells of a one-byte encoding: an unquoted cell is found with `memchr` and decoded straight
    /// from the mapping; a quoted one is copied (doubled quotes made one, text after its closing
    /// quote kept, as the state machine reads it).
    private func narrowCells(_ base: UnsafeRawPointer, _ range: Range<Int>) -> [String] {
        let upper = range.upperBound
        let separator = UInt8(truncatingIfNeeded: delimiter)
        var cells: [String] = []
        var index = range.lowerBound
        func decode(_ bytes: UnsafeRawBufferPointer) -> String {
            let kept = UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.maximumCellUnits))
            var text: String
            if encoding == .latin1 {
                var scalars = String.UnicodeScalarView()
                for byte in kept { scalars.append(Unicode.Scalar(byte)) }
                text = String(scalars)
            } else {
                text = String(decoding: kept, as: UTF8.self)
            }
            if bytes.count > kept.count { text += "…" }
            return text
        }
        while true {
            if index < upper && base.load(fromByteOffset: index, as: UInt8.self) == 0x22 {
                var copied: [UInt8] = []
                index += 1
                while index < upper {
                    let byte = base.load(fromByteOffset: index, as: UInt8.self)
                    index += 1
                    if byte == 0x22 {
                        guard index < upper, base.load(fromByteOffset: index, as: UInt8.self) == 0x22 else { break }
                        index += 1
                    }
                    copied.append(byte)
                }
                while index < upper, base.load(fromByteOffset: index, as: UInt8.self) != separator {
                    copied.append(base.load(fromByteOffset: index, as: UInt8.self))
                    index += 1
                }
                cells.append(copied.withUnsafeBytes(decode))
            } else {
                let found = memchr(base + index, Int32(separator), upper - index)
                let cellEnd = found.map { UnsafeRawPointer($0) - base } ?? upper
                cells.append(decode(UnsafeRawBufferPointer(start: base + index, count: cellEnd - index)))
                index = cellEnd
            }
            guard index < upper, cells.count < Self.maximumCells else { return cells }
            index += 1  // the separator
            if index == upper {
                cells.append("")
                return cells
            }
        }
    }

    private func cells<Units: TableUnits>(_: Units.Type, _ base: UnsafeRawPointer, _ range: Range<Int>) -> [String] {
        var cells: [String] = []
        var units: [UInt16] = []
        var cut = false
        var state = State.fieldStart
        var index = range.lowerBound
        func finish() {
            var text = encoding.decode(units)
            if cut { text += "…" }
            cells.append(text)
            units.removeAll(keepingCapacity: true)
            cut = false
        }
        func keep(_ unit: UInt16) {
            if units.count < Self.maximumCellUnits { units.append(unit) } else { cut = true }
        }
        while index < range.upperBound {
            let unit = Units.unit(base, index)
            index += Units.width
            switch state {
            case .quoted:
                if unit == Self.quote { state = .quoteInQuoted } else { keep(unit) }
            case .quoteInQuoted:
                if unit == Self.quote {
                    keep(unit)
                    state = .quoted
                } else if unit == delimiter {
                    finish()
                    guard cells.count < Self.maximumCells else { return cells }
                    state = .fieldStart
                } else {
                    keep(unit)
                    state = .unquoted
                }
            case .fieldStart, .unquoted:
                if unit == delimiter {
                    finish()
                    guard cells.count < Self.maximumCells else { return cells }
                    state = .fieldStart
                } else if unit == Self.quote && state == .fieldStart {
                    state = .quoted
                } else {
                    keep(unit)
                    state = .unquoted
                }
            }
        }
        finish()
        return cells
    }

    /// How many cells the record in `range` has (separators outside quotes, plus one).
    func cellCount(_ range: Range<Int>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        switch encoding {
        case .utf16LittleEndian: return cellCount(LittleEndianUnits.self, base, range)
        case .utf16BigEndian: return cellCount(BigEndianUnits.self, base, range)
        case .utf8, .utf8WithBOM, .latin1: return cellCount(NarrowUnits.self, base, range)
        }
    }

    private func cellCount<Units: TableUnits>(_: Units.Type, _ base: UnsafeRawPointer, _ range: Range<Int>) -> Int {
        var count = 1
        var state = State.fieldStart
        var index = range.lowerBound
        while index < range.upperBound {
            let unit = Units.unit(base, index)
            index += Units.width
            switch state {
            case .quoted:
                if unit == Self.quote { state = .quoteInQuoted }
            case .quoteInQuoted:
                if unit == Self.quote { state = .quoted } else if unit == delimiter {
                    count += 1
                    state = .fieldStart
                } else { state = .unquoted }
            case .fieldStart, .unquoted:
                if unit == delimiter {
                    count += 1
                    state = .fieldStart
                } else if unit == Self.quote && state == .fieldStart {
                    state = .quoted
                } else {
                    state = .unquoted
                }
            }
        }
        return count
    }
}
