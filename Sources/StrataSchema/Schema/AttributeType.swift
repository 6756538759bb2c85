/// The type of an attribute, one case per Core Data `NSAttributeType` that a
/// store can hold.
///
/// The raw value is the spelling used in `strata-schema/1` files.
public enum AttributeType: String, CaseIterable, Hashable, Sendable {
    case string
    case integer16
    case integer32
    case integer64
    case decimal
    case double
    case float
    case boolean
    case date
    case binary
    case uuid
    case uri
    case transformable

    /// Core Data's `NSAttributeType` code, which enters the version hash.
    public var coreDataCode: UInt32 {
        switch self {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        }
    }

    /// The type whose ``coreDataCode`` is `code`; nil for the codes of
    /// types Strata does not store (undefined 0, object ID 2000, composite
    /// 2100) and any other number.
    public init?(coreDataCode code: Int64) {
        guard let type = Self.allCases.first(where: { Int64($0.coreDataCode) == code }) else {
            return nil
        }
        self = type
    }

    /// The declared SQL type of the column Core Data creates for this type.
    public var columnType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .decimal: "DECIMAL"
        case .double, .float: "FLOAT"
        case .string, .uri: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binary, .uuid, .transformable: "BLOB"
        }
    }

    /// Whether values of this type are numbers (integers, reals, decimals).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }

    /// Whether values of this type are whole numbers.
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64: true
        default: false
        }
    }
}

// MARK: - Widening

extension AttributeType {
    /// The types each type widens to: every value of the old type is a value
    /// of the new one, so a migration keeps them without a mapping (Core
    /// Data's inferred mapping converts these too).
    private static let widenings: [AttributeType: Set<AttributeType>] = [
        .boolean: [.integer16, .integer32, .integer64, .decimal, .double],
        .integer16: [.integer32, .integer64, .decimal, .double, .float],
        .integer32: [.integer64, .decimal, .double],
        .integer64: [.decimal, .double],
        .float: [.double, .decimal],
        .double: [.decimal],
        .uri: [.string],
    ]

    /// Whether values of this type become values of `other` without loss:
    /// Boolean → Integer 16/32/64, Integer 16 → 32 → 64, any integer →
    /// Double, Float → Double (and → Decimal), URI → String.
    ///
    /// A 64-bit integer beyond 2^53 loses its last digits as a Double, as it
    /// does in Core Data; every other widening is exact.
    public func widens(to other: AttributeType) -> Bool {
        Self.widenings[self]?.contains(other) == true
    }
}
