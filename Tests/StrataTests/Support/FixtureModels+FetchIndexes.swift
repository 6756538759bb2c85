@testable import Strata
@testable import StrataSchema

// MARK: - Fetch indexes of the ddg-bookmarks models

extension FixtureModels {
    /// The `fetchIndex` elements of `BookmarksModel n.xcdatamodel`, in the
    /// XML's order: none in version 1, `byUUID` and `byURL` in version 2, and
    /// from version 3 on both extended by `isPendingDeletion` plus
    /// `byIsPendingDeletion`. Kept apart from ``bookmarks(_:)``, whose models
    /// also stand for what a store's model cache holds.
    static func bookmarksFetchIndexes(_ version: Int) -> [FetchIndex] {
        switch version {
        case 1:
            return []
        case 2:
            return [
                FetchIndex(name: "byUUID", elements: [.init(property: "uuid")]),
                FetchIndex(name: "byURL", elements: [.init(property: "url")]),
            ]
        default:
            let pending = FetchIndex.Element(property: "isPendingDeletion")
            return [
                FetchIndex(name: "byUUID", elements: [.init(property: "uuid"), pending]),
                FetchIndex(name: "byURL", elements: [.init(property: "url"), pending]),
                FetchIndex(name: "byIsPendingDeletion", elements: [pending]),
            ]
        }
    }

    /// ``bookmarks(_:)`` with its fetch indexes: everything the XML says.
    static func bookmarksWithIndexes(_ version: Int) -> Model? {
        guard var model = bookmarks(version) else { return nil }
        model.entities[0].indexes = bookmarksFetchIndexes(version)
        return model
    }
}
