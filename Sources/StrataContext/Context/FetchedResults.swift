import Foundation
import StrataCore
import StrataSchema
import StrataStore

/// The results of a fetch request grouped into named sections, kept up to
/// date as the context changes: Core Data's `NSFetchedResultsController`.
///
/// After ``performFetch()``, every save of the context (and, with
/// ``Tracking/allChanges``, every processing of pending changes) fetches
/// again and hands ``onChange`` the differences as section and object
/// changes, in the form a table view applies them in one batch.
///
/// ```swift
/// var request = FetchRequest(entity: "Note")
/// request.sortDescriptors = [SortDescriptor("keywords"), SortDescriptor("title")]
/// let results = try FetchedResults(
///     context: context, request: request, sectionKeyPath: "keywords")
/// results.onChange = { changes in table.apply(changes) }
/// try results.performFetch()
/// let first = results.sections.first?.name  // "", "garden", …
/// ```
///
/// The results hold the context (and the fetched objects) strongly; the
/// context holds them only weakly, so keep a reference for as long as
/// reports are wanted: released results remove their observers. After
/// ``Context/rollback()`` or ``Context/reset()``, which post nothing, call
/// ``performFetch()`` again.
public final class FetchedResults {
    /// One group of results: the objects sharing a value of the section key.
    public struct Section {
        /// The section key's value as text (see
        /// ``FetchedResults/sectionName(for:)``); "" without a section key
        /// path.
        public let name: String
        /// The section's objects, in the request's order.
        public let objects: [ManagedObject]
        /// The number of objects in the section.
        public var numberOfObjects: Int { objects.count }
    }

    /// Which context events make the results fetch again and report.
    public enum Tracking: Hashable, Sendable {
        /// Saves of the context (`didSave`): reports describe what was
        /// committed.
        case saves
        /// Every `objectsDidChange` too — ``Context/processPendingChanges()``,
        /// the start of each save, and ``Context/merge(changes:)`` of another
        /// context's save — so unsaved changes are reported as they happen.
        /// A save then reports only what it changed beyond them (cascading
        /// deletes, refreshed objects), never the same update twice.
        case allChanges
    }

    /// The context fetched from.
    public let context: Context
    /// The request whose results these are.
    public let request: FetchRequest
    /// The key path grouping objects into sections; nil for one section.
    public let sectionKeyPath: String?
    /// The events that refresh the results.
    public let tracking: Tracking
    /// Called with the changes after each refresh that changed something.
    public var onChange: ((FetchedResultsChanges) -> Void)?
    /// The error of the last refresh that failed, if it did; the results
    /// then stay as they were. Cleared by the next successful refresh.
    public internal(set) var lastError: (any Error)?

    /// The sections, in the request's order; empty before ``performFetch()``.
    /// Without a section key path there is one section named "" (when
    /// anything was fetched at all).
    public private(set) var sections: [Section] = []
    /// Every fetched object: the sections' objects one after the other.
    public private(set) var fetchedObjects: [ManagedObject] = []

    private var positions: [ObjectID: ResultIndexPath] = [:]
    private var tokens: [ObserverToken] = []
    /// Updates reported on `objectsDidChange` since the last save.
    var reportedUpdates: Set<ObjectID> = []

    /// Results of `request` on `context`, grouped by `sectionKeyPath`.
    ///
    /// Nothing is fetched until ``performFetch()``.
    ///
    /// - Parameters:
    ///   - context: The context to fetch from and observe.
    ///   - request: What to fetch. With a section key path, its first sort
    ///     descriptor must sort by that key path, so that each section's
    ///     objects come together (the rule Core Data has).
    ///   - sectionKeyPath: An attribute, or a key path through to-one
    ///     relationships (`folder.name`), whose value names the sections;
    ///     nil for a single section.
    ///   - tracking: Which events refresh the results (saves by default).
    /// - Throws: ``ContextError`` (`invalidFetchRequest`) when the first sort
    ///   descriptor does not sort by `sectionKeyPath`.
    public init(
        context: Context, request: FetchRequest, sectionKeyPath: String? = nil,
        tracking: Tracking = .saves
    ) throws {
        if let sectionKeyPath, request.sortDescriptors.first?.key != sectionKeyPath {
            let first = request.sortDescriptors.first.map { "'\($0.key)'" } ?? "nothing"
            throw ContextError(
                .invalidFetchRequest,
                "sections by '\(sectionKeyPath)' need a request sorted first by '\(sectionKeyPath)'"
                    + "; its first sort descriptor sorts by \(first)")
        }
        self.context = context
        self.request = request
        self.sectionKeyPath = sectionKeyPath
        self.tracking = tracking
    }

    deinit {
        for token in tokens { context.removeObserver(token) }
    }

    /// Fetches the results and starts following the context's changes.
    ///
    /// Calling it again fetches anew without reporting changes.
    ///
    /// - Throws: what ``Context/fetch(_:)`` throws for the request, or a
    ///   ``ContextError`` when the section key path is not an attribute.
    public func performFetch() throws {
        adopt(try fetchSections())
        lastError = nil
        reportedUpdates = []
        guard tokens.isEmpty else { return }
        tokens.append(
            context.observe(.didSave) { [weak self] changes in
                self?.refresh(after: changes, saved: true)
            })
        if tracking == .allChanges {
            tokens.append(
                context.observe(.objectsDidChange) { [weak self] changes in
                    self?.refresh(after: changes, saved: false)
                })
        }
    }

    // MARK: - Looking objects up

    /// The object at `indexPath`, or nil when there is none.
    public func object(at indexPath: ResultIndexPath) -> ManagedObject? {
        guard sections.indices.contains(indexPath.section) else { return nil }
        let objects = sections[indexPath.section].objects
        return objects.indices.contains(indexPath.item) ? objects[indexPath.item] : nil
    }

    /// Where `object` is in the results, or nil when it is not among them.
    public func indexPath(for object: ManagedObject) -> ResultIndexPath? {
        guard let position = positions[object.objectID], self.object(at: position) === object
        else { return nil }
        return position
    }

    // MARK: - Section names

    /// The name of the section for a section key value: strings as they
    /// are; integers in decimal (`42`); other numbers in Swift's shortest
    /// form that reads back the same (`2.5`, `3.0`); booleans `true` and
    /// `false`; dates in ISO 8601 in UTC to the second
    /// (`2001-01-01T00:00:00Z`); UUIDs upper case; bytes in base64; no value
    /// as "".
    ///
    /// Objects whose values give the same name share a section.
    public static func sectionName(for value: AttributeValue?) -> String {
        switch value {
        case nil: ""
        case .string(let text)?: text
        case .integer(let number)?: String(number)
        case .real(let number)?: String(number)
        case .boolean(let flag)?: flag ? "true" : "false"
        case .date(let seconds)?:
            // Whole seconds, as Foundation's `.iso8601` style writes them.
            ISO8601Date.string(from: seconds.rounded(.down))
                ?? Date(timeIntervalSinceReferenceDate: seconds).formatted(.iso8601)
        case .uuid(let uuid)?: uuid.uuidString
        case .data(let bytes)?: bytes.base64EncodedString()
        }
    }

    // MARK: - Fetching

    /// Fetches and groups the results: sections in order of first
    /// appearance, so that a sort that puts equal names apart (say
    /// case-insensitive) still gives one section per name.
    func fetchSections() throws -> [Section] {
        let objects = try context.fetch(request)
        guard let sectionKeyPath else {
            return objects.isEmpty ? [] : [Section(name: "", objects: objects)]
        }
        let path = sectionKeyPath.split(separator: ".").map(String.init)
        var names: [String] = []
        var groups: [String: [ManagedObject]] = [:]
        for object in objects {
            let name = FetchedResults.sectionName(for: try value(at: path, of: object))
            if groups[name] == nil { names.append(name) }
            groups[name, default: []].append(object)
        }
        return names.map { Section(name: $0, objects: groups[$0] ?? []) }
    }

    /// The value at a key path through to-one relationships; nil when a
    /// step has no object.
    private func value(at path: [String], of object: ManagedObject) throws -> AttributeValue? {
        var current = object
        for key in path.dropLast() {
            guard let next = try current.object(forKey: key) else { return nil }
            current = next
        }
        guard let last = path.last else { return nil }
        return try current.value(forKey: last)
    }

    /// Makes `newSections` the current results.
    func adopt(_ newSections: [Section]) {
        sections = newSections
        fetchedObjects = newSections.flatMap(\.objects)
        positions = [:]
        for (section, group) in newSections.enumerated() {
            for (item, object) in group.objects.enumerated() {
                positions[object.objectID] = ResultIndexPath(section: section, item: item)
            }
        }
    }
}

/// The position of an object in ``FetchedResults``: its section and its
/// place in that section. (Foundation's `IndexPath` is not used: it allows
/// any number of indexes, and these always have two.)
public struct ResultIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The object's index within the section.
    public var item: Int

    /// The index path of object `item` of `section`.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Orders by section, then item.
    public static func < (lhs: ResultIndexPath, rhs: ResultIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `[section, item]`.
    public var description: String { "[\(section), \(item)]" }
}
