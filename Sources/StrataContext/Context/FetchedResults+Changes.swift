import StrataStore

/// What changed in ``FetchedResults`` between two fetches, in the form a
/// table view applies in one batch: old index paths for what is removed,
/// new ones for what is added.
///
/// ```swift
/// results.onChange = { changes in
///     table.performBatchUpdates {
///         table.deleteSections(changes.deletedSections)
///         table.insertSections(changes.insertedSections)
///         for change in changes.objects { table.apply(change) }
///     }
/// }
/// ```
///
/// The rules are Core Data's: an object that left the results (deleted, or
/// no longer matching the predicate) is a delete, one that entered them an
/// insert; one whose section or order among the others changed is a move;
/// one the change set lists as updated that kept its place is an update.
///
/// Sections are told apart by name. A section whose name is new is
/// inserted and one whose name is gone is deleted; so is a section that
/// changed places with another. Every object of a deleted section is a
/// delete and every object of an inserted one an insert, even when it came
/// from (or went to) another section: a table view cannot move rows out of
/// a section it deletes or into one it inserts.
public struct FetchedResultsChanges: Hashable, Sendable {
    /// A change to one object.
    public enum ObjectChange: Hashable, Sendable {
        /// The object entered the results at this (new) index path.
        case insert(ResultIndexPath)
        /// The object left the results from this (old) index path.
        case delete(ResultIndexPath)
        /// The object changed place, from its old to its new index path.
        case move(from: ResultIndexPath, to: ResultIndexPath)
        /// The object changed but kept its place; the old index path (the
        /// one a batch reload takes — ``FetchedResults/indexPath(for:)``
        /// gives the new one).
        case update(ResultIndexPath)
    }

    /// Indexes of the sections removed, in the old results, ascending.
    public var deletedSections: [Int] = []
    /// Indexes of the sections added, in the new results, ascending.
    public var insertedSections: [Int] = []
    /// The object changes: deletes by old index path, then inserts by new
    /// index path, then moves by new index path, then updates by old index
    /// path.
    public var objects: [ObjectChange] = []

    /// No changes at all.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && objects.isEmpty
    }

    /// The changes from `old` to `new` sections, `updated` naming the
    /// objects that changed.
    init(
        from old: [FetchedResults.Section], to new: [FetchedResults.Section], updated: Set<ObjectID>
    ) {
        // Sections that keep their name and their order among the others.
        let oldSectionByName = Dictionary(
            old.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        let common = new.enumerated().compactMap { index, section in
            oldSectionByName[section.name].map { (old: $0, new: index) }
        }
        var newSectionForOld: [Int: Int] = [:]
        for position in FetchedResultsChanges.increasingRun(common.map(\.old)) {
            newSectionForOld[common[position].old] = common[position].new
        }
        let keptNew = Set(newSectionForOld.values)
        deletedSections = old.indices.filter { newSectionForOld[$0] == nil }
        insertedSections = new.indices.filter { !keptNew.contains($0) }

        let oldPaths = FetchedResultsChanges.indexPaths(old)
        let newPaths = FetchedResultsChanges.indexPaths(new)
        // Objects that stay in a kept section and keep their order there.
        var staying: Set<ObjectID> = []
        for (oldSection, newSection) in newSectionForOld {
            let survivors = new[newSection].objects.map(\.objectID).filter {
                oldPaths[$0]?.section == oldSection
            }
            let oldItems = survivors.compactMap { oldPaths[$0]?.item }
            for position in FetchedResultsChanges.increasingRun(oldItems) {
                staying.insert(survivors[position])
            }
        }

        var deletes: [ResultIndexPath] = []
        var inserts: [ResultIndexPath] = []
        var moves: [(from: ResultIndexPath, to: ResultIndexPath)] = []
        var updates: [ResultIndexPath] = []
        for (id, from) in oldPaths {
            guard let to = newPaths[id] else {
                deletes.append(from)
                continue
            }
            if newSectionForOld[from.section] == nil || !keptNew.contains(to.section) {
                deletes.append(from)
                inserts.append(to)
            } else if !staying.contains(id) {
                moves.append((from, to))
            } else if updated.contains(id) {
                updates.append(from)
            }
        }
        for (id, to) in newPaths where oldPaths[id] == nil {
            inserts.append(to)
        }
        objects =
            deletes.sorted().map { .delete($0) } + inserts.sorted().map { .insert($0) }
            + moves.sorted { $0.to < $1.to }.map { .move(from: $0.from, to: $0.to) }
            + updates.sorted().map { .update($0) }
    }

    /// The index path of every object of `sections`, by its current id
    /// (objects inserted before a save have their permanent ids by now).
    private static func indexPaths(_ sections: [FetchedResults.Section]) -> [ObjectID:
        ResultIndexPath]
    {
        var paths: [ObjectID: ResultIndexPath] = [:]
        for (section, group) in sections.enumerated() {
            for (item, object) in group.objects.enumerated() {
                paths[object.objectID] = ResultIndexPath(section: section, item: item)
            }
        }
        return paths
    }

    /// The positions in `values` of a longest strictly increasing
    /// subsequence: the elements that kept their order, so that the fewest
    /// are reported as moved. Patience sorting, O(n log n); the same values always
    /// give the same run.
    static func increasingRun(_ values: [Int]) -> [Int] {
        // tails[k]: position of the smallest last value of a run of length k+1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var run: [Int] = []
        var position = tails.last ?? -1
        while position >= 0 {
            run.append(position)
            position = previous[position]
        }
        return run.reversed()
    }
}

// MARK: - Refreshing

extension FetchedResults {
    /// Fetches again after `changes` and reports the differences; a save
    /// (`saved`) skips updates already reported on `objectsDidChange`.
    func refresh(after changes: ChangeSet, saved: Bool) {
        let newSections: [Section]
        do {
            newSections = try fetchSections()
        } catch {
            lastError = error
            return
        }
        lastError = nil
        var updated = changes.updated
        if tracking == .allChanges {
            if saved {
                updated.subtract(reportedUpdates)
                reportedUpdates = []
            } else {
                reportedUpdates.formUnion(changes.updated)
            }
        }
        let report = FetchedResultsChanges(from: sections, to: newSections, updated: updated)
        adopt(newSections)
        if !report.isEmpty { onChange?(report) }
    }
}
