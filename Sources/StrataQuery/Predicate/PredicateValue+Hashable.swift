import StrataCore

extension PredicateValue {
    /// Whether two values are the same: of one kind and equal, text by its
    /// bytes (``ExactText``), as the SQL compiler and the evaluator compare
    /// it. Swift's `String` `==` holds `"café"` (é as one scalar) and
    /// `"cafe\u{301}"` equal, yet predicates with them select different
    /// objects, so they must not share a fetch plan.
    public static func == (left: PredicateValue, right: PredicateValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.boolean(let a), .boolean(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        default: false
        }
    }

    /// Hashes the value consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .string(let text):
            hasher.combine(1)
            ExactText(text).hash(into: &hasher)
        case .boolean(let flag):
            hasher.combine(2)
            hasher.combine(flag)
        case .integer(let number):
            hasher.combine(3)
            hasher.combine(number)
        case .real(let number):
            hasher.combine(4)
            hasher.combine(number)
        case .date(let seconds):
            hasher.combine(5)
            hasher.combine(seconds)
        case .data(let bytes):
            hasher.combine(6)
            hasher.combine(bytes)
        case .uuid(let uuid):
            hasher.combine(7)
            hasher.combine(uuid)
        case .object(let id):
            hasher.combine(8)
            hasher.combine(id)
        case .array(let items):
            hasher.combine(9)
            hasher.combine(items)
        }
    }
}
