/// A set of names in which a name already taken gets `1`, `2`, … appended,
/// the way Core Data names clashing columns (`ZTEXT`, `ZTEXT1`; §1.3, §1.5).
struct ColumnNamespace {
    private var taken: Set<String>

    /// A namespace in which `reserved` are already taken.
    init(reserved: Set<String> = []) {
        taken = reserved
    }

    /// Takes `base`, or the first of `base1`, `base2`, … that is free.
    package mutating func claim(_ base: String) -> String {
        if taken.insert(base).inserted { return base }
        var suffix = 1
        while !taken.insert("\(base)\(suffix)").inserted { suffix += 1 }
        return "\(base)\(suffix)"
    }
}
