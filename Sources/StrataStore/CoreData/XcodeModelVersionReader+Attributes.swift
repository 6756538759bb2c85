import Foundation
import StrataCore
import StrataSchema

// MARK: - Attributes

extension XcodeModelVersionReader {
    /// Xcode's exact `attributeType` spellings (coredata-format.md §2.4).
    static let attributeTypes: [String: AttributeType] = [
        "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64,
        "Decimal": .decimal, "Double": .double, "Float": .float, "String": .string,
        "Boolean": .boolean, "Date": .date, "Binary": .binary, "UUID": .uuid, "URI": .uri,
        "Transformable": .transformable,
    ]

    mutating func convertAttribute(_ element: XMLElement) -> Attribute? {
        let name = Self.text(element, "name") ?? ""
        if name.isEmpty { report(element, "an attribute needs a name") }
        let isTransient = Self.flag(element, "transient")
        let type: AttributeType
        switch element[attribute: "attributeType"] {
        case let spelling? where Self.attributeTypes[spelling] != nil:
            type = Self.attributeTypes[spelling] ?? .string
        case nil, "Undefined":
            if isTransient {
                warn(
                    element,
                    "left out: a transient attribute of undefined type has no column and no "
                        + "hash, and schema attributes need a type")
            } else {
                report(element, "an attribute of undefined type must be transient; give it a type")
            }
            return nil
        case let spelling? where spelling == "ObjectID" || spelling == "Composite":
            report(element, "attributeType \"\(spelling)\" is not supported by Strata schemas")
            return nil
        case let spelling?:
            let known = Self.attributeTypes.keys.sorted().map { "\"\($0)\"" }
            report(
                element,
                "unknown attributeType \"\(spelling)\"; expected one of "
                    + known.joined(separator: ", "))
            return nil
        }
        var attribute = Attribute(name: name, type: type)
        attribute.isOptional = Self.flag(element, "optional")
        attribute.isTransient = isTransient
        attribute.isIndexed = Self.flag(element, "indexed")
        attribute.versionHashModifier = Self.text(element, "versionHashModifier")
        attribute.renamingIdentifier = Self.renamingIdentifier(of: element, named: name)
        attribute.preservesValueOnDeletion = Self.flag(element, "preserveAfterDeletion")
        if Self.flag(element, "allowsExternalBinaryDataStorage") {
            if type == .binary || type == .transformable {
                attribute.allowsExternalStorage = true
            } else {
                // Hashed, so it cannot be dropped quietly.
                report(
                    element,
                    "allowsExternalBinaryDataStorage applies only to Binary and "
                        + "Transformable attributes")
            }
        }
        if let transformer = Self.text(element, "valueTransformerName") {
            if type == .transformable {
                attribute.valueTransformer = transformer
            } else {
                warn(element, "valueTransformerName left out: it applies only to Transformable")
            }
        }
        if let pattern = Self.text(element, "regularExpressionString") {
            if type == .string {
                attribute.pattern = pattern
            } else {
                warn(element, "regularExpressionString left out: it applies only to String")
            }
        }
        if Self.flag(element, "derived") {
            warn(
                element,
                "derivationExpression left out: Strata stores the attribute but does not "
                    + "compute it")
        }
        attribute.defaultValue = convertDefault(element, type: type)
        convertBounds(element, into: &attribute)
        attribute.userInfo = Self.userInfo(of: element)
        applyMagicalRecordKeys(to: &attribute)
        return attribute
    }

    /// MagicalRecord's import keys: `mappedKeyName` (then `mappedKeyName.1`,
    /// `.2`, …) become ``Attribute/importKeys``; `dateFormat` on a date
    /// becomes ``Attribute/dateFormat``. The userInfo keeps them as well.
    mutating func applyMagicalRecordKeys(to attribute: inout Attribute) {
        var keys: [String] = []
        if let key = attribute.userInfo["mappedKeyName"], !key.isEmpty { keys.append(key) }
        var number = 1
        while let key = attribute.userInfo["mappedKeyName.\(number)"] {
            if !key.isEmpty && !keys.contains(key) { keys.append(key) }
            number += 1
        }
        attribute.importKeys = keys.filter { $0 != attribute.name }
        if attribute.type == .date, let format = attribute.userInfo["dateFormat"], !format.isEmpty {
            attribute.dateFormat = format
        }
    }

    // MARK: - Defaults

    /// The default Core Data would use. Defaults are neither hashed nor
    /// laid out, so a value Xcode accepted but that does not fit the type
    /// never refuses the model: YES/NO on a number type becomes 1/0 (as
    /// Core Data reads it), anything else unreadable becomes no default;
    /// both with a located warning.
    mutating func convertDefault(_ element: XMLElement, type: AttributeType) -> AttributeDefault? {
        if type == .date, let text = Self.text(element, "defaultDateTimeInterval") {
            guard let seconds = Double(text), seconds.isFinite else {
                warn(
                    element,
                    "defaultDateTimeInterval \"\(text)\" left out: not a number of seconds; "
                        + "no default")
                return nil
            }
            return .literal(.date(seconds))
        }
        // An empty defaultValueString is a real default for strings.
        guard let text = element[attribute: "defaultValueString"] else { return nil }
        switch Self.defaultValue(text: text, type: type) {
        case .value(let value):
            return value
        case .readAsNumber(let value, let warning):
            warn(element, warning)
            return value
        case .leftOut(let warning):
            warn(element, warning)
            return nil
        }
    }

    /// How a default's text reads for an attribute type.
    package enum DefaultText {
        /// The default.
        case value(AttributeDefault)
        /// YES/NO on a number type, read as 1/0 as Core Data reads it.
        case readAsNumber(AttributeDefault, warning: String)
        /// No default: the text does not fit the type.
        case leftOut(warning: String)
    }

    /// The default a `defaultValueString` gives an attribute of `type`
    /// (the rule of `contents` files, which model snapshots share).
    package static func defaultValue(text: String, type: AttributeType) -> DefaultText {
        let what = "defaultValueString \"\(text)\""
        switch type {
        case .string, .uri:
            return .value(.literal(.string(text)))
        case .integer16, .integer32, .integer64:
            if let value = integer(text, type) { return .value(.literal(.integer(value))) }
            if let flag = boolean(text) {
                return .readAsNumber(
                    .literal(.integer(flag ? 1 : 0)), warning: readAsNumber(what, type, flag))
            }
            return .leftOut(
                warning: "\(what) left out: not an integer within the range of \(type.rawValue); "
                    + "no default, as in Core Data")
        case .decimal, .double, .float:
            if let value = real(text, type) { return .value(.literal(.real(value))) }
            if let flag = boolean(text) {
                return .readAsNumber(
                    .literal(.real(flag ? 1 : 0)), warning: readAsNumber(what, type, flag))
            }
            return .leftOut(
                warning: "\(what) left out: not a number within the range of \(type.rawValue); "
                    + "no default, as in Core Data")
        case .boolean:
            if let flag = boolean(text) ?? integer(text, .integer64).map({ $0 != 0 }) {
                return .value(.literal(.boolean(flag)))
            }
            return .leftOut(warning: "\(what) left out: not YES or NO; no default, as in Core Data")
        case .uuid:
            guard let uuid = UUID(uuidString: text) else {
                return .leftOut(warning: "\(what) left out: not a UUID; no default")
            }
            return .value(.literal(.uuid(uuid)))
        case .date:
            guard let seconds = Double(text), seconds.isFinite else {
                return .leftOut(
                    warning: "\(what) left out: not a number of seconds since 2001; no default")
            }
            return .value(.literal(.date(seconds)))
        case .binary, .transformable:
            return .leftOut(
                warning: "\(what) left out: a default for \(type.rawValue) has no text form")
        }
    }

    /// The warning for a boolean default on a number type.
    static func readAsNumber(_ what: String, _ type: AttributeType, _ flag: Bool) -> String {
        "\(what) on \(type.rawValue) read as \(flag ? 1 : 0), as Core Data does"
    }

    /// YES/NO (TRUE/FALSE, any case) as Core Data spells booleans.
    package static func boolean(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).uppercased() {
        case "YES", "TRUE": true
        case "NO", "FALSE": false
        default: nil
        }
    }

    // MARK: - Bounds

    /// `minValueString`/`maxValueString` (numeric bounds, or lengths for
    /// strings) and `minDateTimeInterval`/`maxDateTimeInterval` (dates).
    mutating func convertBounds(_ element: XMLElement, into attribute: inout Attribute) {
        let type = attribute.type
        let bounds = [("minValueString", true), ("maxValueString", false)]
        for (key, isMinimum) in bounds {
            guard let text = Self.text(element, key) else { continue }
            switch type {
            case .string:
                guard let length = Int(text), length >= 0, length <= Int(Int32.max) else {
                    // Validation only: neither hashed nor laid out.
                    warn(element, "\(key) \"\(text)\" left out: not a length (an integer from 0)")
                    continue
                }
                if isMinimum { attribute.minLength = length } else { attribute.maxLength = length }
            case .integer16, .integer32, .integer64, .decimal, .double, .float:
                let value =
                    type.isInteger
                    ? Self.integer(text, type).map { Double($0) } : Self.real(text, type)
                guard let value else {
                    warn(
                        element,
                        "\(key) \"\(text)\" left out: not a number within the range of "
                            + type.rawValue)
                    continue
                }
                if isMinimum { attribute.minValue = value } else { attribute.maxValue = value }
            default:
                warn(element, "\(key) left out: it applies to numbers and strings")
            }
        }
        let dateBounds = [("minDateTimeInterval", true), ("maxDateTimeInterval", false)]
        for (key, isMinimum) in dateBounds {
            guard let text = Self.text(element, key) else { continue }
            guard type == .date else {
                warn(element, "\(key) left out: it applies to dates")
                continue
            }
            guard let seconds = Double(text), seconds.isFinite else {
                warn(element, "\(key) \"\(text)\" left out: not a number of seconds since 2001")
                continue
            }
            if isMinimum { attribute.minValue = seconds } else { attribute.maxValue = seconds }
        }
    }

    /// An integer within the width of `type`; Xcode writes integers plainly.
    package static func integer(_ text: String, _ type: AttributeType) -> Int64? {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
        let range: ClosedRange<Int64> =
            switch type {
            case .integer16: Int64(Int16.min)...Int64(Int16.max)
            case .integer32: Int64(Int32.min)...Int64(Int32.max)
            default: Int64.min...Int64.max
            }
        return range.contains(value) ? value : nil
    }

    /// A finite number, within float's range for `float`.
    package static func real(_ text: String, _ type: AttributeType) -> Double? {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            return nil
        }
        if type == .float, abs(value) > Double(Float.greatestFiniteMagnitude) { return nil }
        return value
    }
}
