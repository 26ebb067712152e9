internal import CCUPS

/// Attributes copied out of an IPP message into Swift values.
struct IPPAttributes: Sendable {
    enum Value: Sendable {
        case strings([String])
        case integers([Int])
        case booleans([Bool])
        case ranges([ClosedRange<Int>])
        case dates([Int])   // seconds since 1970
        case other
    }

    var values: [String: Value] = [:]

    static func read(_ attr: OpaquePointer) -> Value {
        let count = Int(libcups.ippGetCount(attr))
        let tag = libcups.ippGetValueTag(attr)
        switch tag {
        case IPP_TAG_INTEGER:
            return .integers((0..<count).map { Int(libcups.ippGetInteger(attr, Int32($0))) })
        case IPP_TAG_ENUM:
            return .integers((0..<count).map { Int(libcups.ippGetInteger(attr, Int32($0))) })
        case IPP_TAG_BOOLEAN:
            return .booleans((0..<count).map { libcups.ippGetBoolean(attr, Int32($0)) != 0 })
        case IPP_TAG_RANGE:
            return .ranges((0..<count).map {
                var upper: Int32 = 0
                let lower = libcups.ippGetRange(attr, Int32($0), &upper)
                return Int(lower)...Int(max(lower, upper))
            })
        case IPP_TAG_DATE:
            return .dates((0..<count).compactMap {
                libcups.ippGetDate(attr, Int32($0)).map { Int(libcups.ippDateToTime($0)) }
            })
        case IPP_TAG_NOVALUE, IPP_TAG_UNKNOWN, IPP_TAG_NOTSETTABLE, IPP_TAG_DELETEATTR, IPP_TAG_BEGIN_COLLECTION:
            return .other
        default:
            return .strings((0..<count).compactMap {
                libcups.ippGetString(attr, Int32($0), nil).map { String(cString: $0) }
            })
        }
    }

    func strings(_ name: String) -> [String] {
        switch values[name] {
        case .strings(let v): return v
        case .integers(let v): return v.map(String.init)
        case .booleans(let v): return v.map { $0 ? "true" : "false" }
        default: return []
        }
    }
    func string(_ name: String) -> String? { strings(name).first }
    func integer(_ name: String) -> Int? {
        switch values[name] {
        case .integers(let v): return v.first
        case .dates(let v): return v.first
        case .strings(let v): return v.first.flatMap { Int($0) }
        default: return nil
        }
    }
    func integers(_ name: String) -> [Int] {
        if case .integers(let v) = values[name] { return v }
        return []
    }
    func boolean(_ name: String) -> Bool? {
        if case .booleans(let v) = values[name] { return v.first }
        return nil
    }
    func range(_ name: String) -> ClosedRange<Int>? {
        if case .ranges(let v) = values[name] { return v.first }
        return nil
    }
}
