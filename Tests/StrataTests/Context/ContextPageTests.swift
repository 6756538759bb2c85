import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataCore
@testable import StrataSchema
@testable import StrataStore

/// Keyset pages (`Context.fetchPage`) give exactly the objects of a sorted
/// fetch, page after page, in both directions, with NULLs and ties.
struct ContextPageTests {
    @Test(arguments: [("score", true), ("score", false), ("title", true), (nil, true)])
    func pagesForwardAndBackwardMatchTheSortedFetch(sort: String?, ascending: Bool) throws {
        let fixture = try WebFixture(entries: 57)
        let store = try Store.open(at: fixture.url, mode: .readOnly)
        let context = try Context(store: store, model: fixture.model)
        var request = FetchRequest(entity: "Entry")
        if let sort { request.sortDescriptors = [SortDescriptor(sort, ascending: ascending)] }
        // A fetch breaks ties by ascending key; pages by the key in the
        // sort's direction.
        var expected = try context.fetch(request).map(\.objectID)
        if let sort, !ascending {
            let values = try context.fetch(request).map { try $0.value(forKey: sort) }
            let ranked = zip(expected, values).enumerated().sorted { lhs, rhs in
                let order = AttributeValue.compare(lhs.element.1, rhs.element.1)
                if order != 0 { return order > 0 }
                return lhs.element.0.key > rhs.element.0.key
            }
            expected = ranked.map(\.element.0)
        }
        var forward: [ObjectID] = []
        var start = FetchPageStart.first
        while true {
            let page = try context.fetchPage(request, from: start, limit: 8)
            forward += page.map(\.objectID)
            guard let last = page.last else { break }
            start = .after(last.objectID)
        }
        #expect(forward == expected)
        var backward: [ObjectID] = []
        start = .last
        while true {
            let page = try context.fetchPage(request, from: start, limit: 8)
            backward = page.map(\.objectID) + backward
            guard let first = page.first else { break }
            start = .before(first.objectID)
        }
        #expect(backward == expected)
    }

    @Test func aPageAfterAnObjectNotInTheStoreIsRefused() throws {
        let fixture = try WebFixture(entries: 3)
        let context = try Context(
            store: try Store.open(at: fixture.url, mode: .readOnly), model: fixture.model)
        #expect(throws: ContextError.self) {
            try context.fetchPage(
                FetchRequest(entity: "Entry"),
                from: .after(ObjectID(entityName: "Entry", key: 99)), limit: 5)
        }
    }
}
