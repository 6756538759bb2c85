import StrataValues

extension AttributeValue {
    /// Whether two values are the same stored value: of one kind and equal,
    /// text by its bytes (``ExactText``). Swift's `==` on `String` holds
    /// `"café"` (é as one scalar) and `"cafe\u{301}"` equal; SQLite, a
    /// store's uniqueness constraints and Core Data's `isEqual:` do not, so
    /// neither may anything that decides by values whether to write (a
    /// change, a find-or-create key, a fetch plan).
    public static func == (left: AttributeValue, right: AttributeValue) -> Bool {
        switch (left, right) {
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        default: false
        }
    }

    /// Hashes the value consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let text):
            hasher.combine(0)
            ExactText(text).hash(into: &hasher)
        case .integer(let number):
            hasher.combine(1)
            hasher.combine(number)
        case .real(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .boolean(let flag):
            hasher.combine(3)
            hasher.combine(flag)
        case .date(let seconds):
            hasher.combine(4)
            hasher.combine(seconds)
        case .data(let bytes):
            hasher.combine(5)
            hasher.combine(bytes)
        case .uuid(let uuid):
            hasher.combine(6)
            hasher.combine(uuid)
        }
    }
}
