/// What converting a Core Data mapping model did, per entity mapping: what
/// is copied, renamed, computed, created, linked or dropped (`--report`).
///
/// ```
/// 5-6.mapping.json (from SRGUserData_v5_v6.xcmappingmodel, versions 5 → 6)
///   HistoryEntryToSRGHistoryEntry: HistoryEntry → SRGHistoryEntry, creates objects
///     computed  deviceUid = deviceName  ($source.deviceName)
///     copied    date, dirty, discarded
/// ```
public struct MappingModelReport: Hashable, Sendable, CustomStringConvertible {
    /// What happens to one kind of element of one entity mapping.
    public enum Action: String, Hashable, Sendable {
        /// Values carried over under the same name.
        case copied
        /// Values carried over from a property of another name.
        case renamed
        /// Values an expression computes.
        case computed
        /// Values converted to a new type by a named rule.
        case converted
        /// Objects made from another entity's, or links to such objects.
        case created
        /// Links made from a path of source relationships.
        case linked
        /// Values, links or objects that do not reach the new version.
        case dropped
        /// Properties left at their default value.
        case defaulted = "default"
        /// What an app's policy class does, which Strata does not run.
        case policy
        /// What needs a look: Xcode's behaviour is not known, or the
        /// migration will refuse until something is added.
        case warning
    }

    /// One line of the report.
    public struct Line: Hashable, Sendable {
        /// The kind of line.
        public var action: Action
        /// What it is about, e.g. `deviceUid = deviceName ($source.deviceName)`.
        public var text: String

        /// Creates a line.
        public init(_ action: Action, _ text: String) {
            self.action = action
            self.text = text
        }
    }

    /// The lines of one entity mapping.
    public struct Entry: Hashable, Sendable {
        /// The entity mapping's name.
        public var entityMapping: String
        /// `HistoryEntry → SRGHistoryEntry, creates objects`.
        public var summary: String
        /// The lines, in the order they were found.
        public var lines: [Line]
    }

    /// The mapping file written (`5-6.mapping.json`).
    public var fileName: String
    /// The mapping model converted.
    public var source: String
    /// The versions the file joins.
    public var from: Int
    /// The version the file writes.
    public var to: Int
    /// The entries, in the mapping model's order; file-wide lines (entities
    /// no mapping reads) come last under `(model)`.
    public var entries: [Entry]

    /// The report as text, one line per element, as `--report` prints it.
    public var description: String {
        var text = "\(fileName) (from \(source), versions \(from) → \(to))"
        for entry in entries {
            text += "\n  \(entry.entityMapping): \(entry.summary)"
            for line in entry.lines {
                let action = line.action.rawValue.padding(
                    toLength: 10, withPad: " ", startingAt: 0)
                text += "\n    \(action)\(line.text)"
            }
        }
        return text
    }
}
