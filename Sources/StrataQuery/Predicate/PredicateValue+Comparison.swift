import Foundation
import StrataStore

// MARK: - Comparing values, as SQLite compares the columns Core Data writes

extension PredicateValue {
    /// The value as SQLite holds it: a number (integers exactly; booleans as
    /// 0/1, dates as seconds since 2001), text, bytes (UUIDs as their 16
    /// bytes), an object, a collection, or NULL.
    enum Stored {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case bytes(Data)
        case object(ObjectID)
        case collection([PredicateValue])

        /// SQLite's storage-class order for values of different classes:
        /// numbers before text before bytes.
        var rank: Int {
            switch self {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            case .bytes: 3
            case .object, .collection: 4
            }
        }
    }

    var stored: Stored {
        switch self {
        case .null: .null
        case .boolean(let value): .integer(value ? 1 : 0)
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .date(let seconds): .real(seconds)
        case .string(let value): .text(value)
        case .data(let value): .bytes(value)
        case .uuid(let value): .bytes(withUnsafeBytes(of: value.uuid) { Data($0) })
        case .object(let id): .object(id)
        case .array(let items): .collection(items)
        }
    }

    var isNull: Bool { self == .null }

    /// `self` compared with `other`: negative, zero or positive; nil when
    /// either is nil or the two cannot be ordered (objects, collections).
    /// Strings are folded with `options` and compared by UTF-8 bytes.
    package func order(_ other: PredicateValue, options: StringOptions) -> Int? {
        let (a, b) = (stored, other.stored)
        switch (a, b) {
        case (.null, _), (_, .null): return nil
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.integer, .real), (.real, .integer), (.real, .real):
            guard let x = a.number, let y = b.number, !x.isNaN, !y.isNaN else { return nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.text(let x), .text(let y)):
            return PredicateStringFolding.compareBytes(
                PredicateStringFolding.fold(x, options), PredicateStringFolding.fold(y, options))
        case (.bytes(let x), .bytes(let y)):
            for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
            return x.count < y.count ? -1 : (x.count == y.count ? 0 : 1)
        case (.object, _), (.collection, _), (_, .object), (_, .collection):
            return nil
        default:
            return a.rank < b.rank ? -1 : 1
        }
    }

    /// Whether `self` equals `other`: nil equals only nil; numbers compare
    /// by value across integers, reals, booleans and dates; objects by id.
    func equals(_ other: PredicateValue, options: StringOptions) -> Bool {
        switch (stored, other.stored) {
        case (.null, .null): return true
        case (.object(let x), .object(let y)): return x == y
        default: return order(other, options: options) == 0
        }
    }
}

extension PredicateValue.Stored {
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }
}
