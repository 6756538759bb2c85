import Foundation

@testable import Strata
@testable import StrataContext

/// What the doc examples call a table view: the calls a UI would make with
/// the changes of ``FetchedResults``.
final class TableView {
    var calls: [String] = []

    func apply(_ changes: FetchedResultsChanges) { calls.append("apply \(changes.objects.count)") }
    func apply(_ change: FetchedResultsChanges.ObjectChange) { calls.append("\(change)") }
    func performBatchUpdates(_ updates: () -> Void) { updates() }
    func deleteSections(_ sections: [Int]) { calls.append("delete \(sections)") }
    func insertSections(_ sections: [Int]) { calls.append("insert \(sections)") }
}
