import Foundation
import StrataContext
import StrataSchema
import StrataStore

/// The values of one source object that a batch update reads
/// (``CustomStepWork/update(_:set:reading:where:_:)``): the attributes it
/// named, by name, and the object's primary key.
///
/// A row is a value read from one statement step; nothing in it refers to a
/// context, so reading it costs no object.
public struct SourceRow {
    /// The object's primary key (`Z_PK`), the same in the destination.
    public let primaryKey: Int64
    /// The named attributes, in the order of ``values`` (shared by every
    /// row; a few names, scanned faster than a dictionary hashes one).
    let names: [String]
    /// The values of the named attributes, nil where the object has none.
    let values: [AttributeValue?]

    /// The value of attribute `name`; nil when the object has none.
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`) when the update did not
    ///   name `name` in its `reading:` list.
    public func value(_ name: String) throws -> AttributeValue? {
        guard let position = names.firstIndex(of: name) else {
            throw ContextError(
                .unknownProperty,
                "the update reads \(names.joined(separator: ", ")); "
                    + "add '\(name)' to its reading: list")
        }
        return values[position]
    }

    /// The text of attribute `name`, or nil (none, or not text).
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`) for a name not read.
    public func string(_ name: String) throws -> String? {
        guard case .string(let text)? = try value(name) else { return nil }
        return text
    }

    /// The whole number of attribute `name`, or nil (none, or not an integer).
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`) for a name not read.
    public func integer(_ name: String) throws -> Int64? {
        guard case .integer(let number)? = try value(name) else { return nil }
        return number
    }

    /// The number of attribute `name` (an integer as a real), or nil.
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`) for a name not read.
    public func double(_ name: String) throws -> Double? {
        switch try value(name) {
        case .real(let number)?: number
        case .integer(let number)?: Double(number)
        default: nil
        }
    }

    /// The date of attribute `name`, or nil.
    ///
    /// - Throws: ``ContextError`` (`unknownProperty`) for a name not read.
    public func date(_ name: String) throws -> Date? {
        guard case .date(let seconds)? = try value(name) else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }
}
