import Foundation

@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Builds an `NSKeyedArchiver` archive entry by entry: `$objects` starting
/// with `$null`, class records `{ $classname, $classes }`, objects that
/// refer to each other by UID. Slots can be reserved first, so archives
/// with cycles (models' `_owner` links, a self-containing expression) can
/// be written.
struct KeyedArchiveBuilder {
    var objects: [RecordValue] = [.text("$null")]
    /// Class record UIDs, by class name.
    var classes: [String: RecordValue] = [:]

    /// Appends `value` to `$objects`; returns its UID.
    @discardableResult
    mutating func add(_ value: RecordValue) -> RecordValue {
        objects.append(value)
        return .uid(UInt64(objects.count - 1))
    }

    /// A slot to fill later with ``set(_:_:)``.
    mutating func reserve() -> RecordValue {
        add(.null)
    }

    /// Fills the slot `uid`.
    mutating func set(_ uid: RecordValue, _ value: RecordValue) {
        guard case .uid(let index) = uid else { return }
        objects[Int(index)] = value
    }

    /// A string entry.
    mutating func string(_ text: String) -> RecordValue {
        add(.text(text))
    }

    /// The class record of `chain` (the class first, then its superclasses;
    /// `NSObject` is added).
    mutating func classUID(_ chain: [String]) -> RecordValue {
        let name = chain.first ?? "NSObject"
        if let uid = classes[name] { return uid }
        let uid = add(
            .dictionary(entries: [
                "$classname": .text(name),
                "$classes": .array(values: (chain + ["NSObject"]).map { .text($0) }),
            ]))
        classes[name] = uid
        return uid
    }

    /// An object of the class `chain[0]` with `fields`, in the slot `slot`
    /// when given.
    @discardableResult
    mutating func object(
        _ chain: [String], _ fields: [String: RecordValue], at slot: RecordValue? = nil
    ) -> RecordValue {
        let uid = classUID(chain)
        let value = RecordValue.dictionary(
            entries: fields.merging(["$class": uid]) { $1 }.sorted { $0.key < $1.key })
        if let slot {
            set(slot, value)
            return slot
        }
        return add(value)
    }

    /// An `NSArray` (or `className`) of the objects `items`.
    mutating func array(_ items: [RecordValue], className: String = "NSArray") -> RecordValue {
        let chain = className == "NSArray" ? ["NSArray"] : [className, "NSArray"]
        return object(chain, ["NS.objects": .array(values: items)])
    }

    /// An `NSDictionary` (or `className`) of `entries`, keys as strings.
    mutating func dictionary(
        _ entries: [(String, RecordValue)], className: String = "NSDictionary"
    ) -> RecordValue {
        let keys = entries.map { string($0.0) }
        let chain = className == "NSDictionary" ? ["NSDictionary"] : [className, "NSDictionary"]
        return object(
            chain,
            ["NS.keys": .array(values: keys), "NS.objects": .array(values: entries.map(\.1))])
    }

    /// The archive's binary property list, `root` as `$top.root`.
    func archive(root: RecordValue) -> Data {
        BinaryPropertyList.encode(
            .dictionary(entries: [
                "$archiver": .text("NSKeyedArchiver"),
                "$version": .integer(100_000),
                "$top": .dictionary(entries: ["root": root]),
                "$objects": .array(values: objects),
            ]))
    }
}
