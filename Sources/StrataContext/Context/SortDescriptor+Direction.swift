// MARK: - Spelling a direction

extension SortDescriptor: ExpressibleByStringLiteral {
    /// An ascending sort on a key written as a literal, so that
    /// `sortedBy: "title"` and `sortedBy: .descending("date")` mix in one
    /// list.
    public init(stringLiteral key: String) {
        self.init(key)
    }

    /// Smaller values first (nil first, as in SQLite).
    ///
    /// ```swift
    /// let oldestFirst = try context.findAll(
    ///     DiaryEntry.self, sortedBy: .ascending("creationTime"))
    /// ```
    public static func ascending(_ key: String, comparison: StringComparison = .binary) -> Self {
        SortDescriptor(key, ascending: true, comparison: comparison)
    }

    /// Larger values first (nil last), as for newest-first lists.
    ///
    /// ```swift
    /// let newestFirst = try context.findAll(
    ///     DiaryEntry.self, sortedBy: .descending("creationTime"))
    /// ```
    public static func descending(_ key: String, comparison: StringComparison = .binary) -> Self {
        SortDescriptor(key, ascending: false, comparison: comparison)
    }
}
