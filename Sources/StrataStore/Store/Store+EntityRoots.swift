extension Store {
    /// The store's entity records by `Z_ENT` (the first of a repeated number).
    package var entityRecordsByNumber: [Int: EntityRecord] {
        Dictionary(entityRecords.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The root of `record`'s inheritance as `Z_PRIMARYKEY` records it:
    /// `Z_SUPER` followed while the parent is recorded. The store is
    /// input, so a parent it lacks or a cycle stops the walk at the last
    /// record reached; the root's name gives the table (§1.3).
    package static func root(
        of record: EntityRecord, in byNumber: [Int: EntityRecord]
    ) -> EntityRecord {
        var root = record
        var seen: Set<Int> = [record.number]
        while root.superNumber != 0, let parent = byNumber[root.superNumber],
            seen.insert(parent.number).inserted
        {
            root = parent
        }
        return root
    }
}
