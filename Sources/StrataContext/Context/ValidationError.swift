import StrataStore

/// The reasons a save was refused: every rule every changed object broke,
/// collected in one pass, each naming the object, the property and the rule.
public struct ValidationError: Error, CustomStringConvertible, Sendable {
    /// One broken rule.
    public struct Failure: Hashable, Sendable, CustomStringConvertible {
        /// The object that broke it.
        public var object: ObjectID
        /// The property, or nil for an entity-level rule (a save hook).
        public var property: String?
        /// The rule: `required`, `maxLength`, `pattern`, `minValue`, …
        public var rule: String
        /// What was wrong.
        public var message: String

        /// A failure of `rule` on `property` of `object`.
        package init(object: ObjectID, property: String?, rule: String, message: String) {
            self.object = object
            self.property = property
            self.rule = rule
            self.message = message
        }

        /// `DiaryEntry/t1.creationTime: required: …`
        public var description: String {
            "\(object)\(property.map { ".\($0)" } ?? ""): \(rule): \(message)"
        }
    }

    /// Every failure, in object then property order.
    public var failures: [Failure]

    /// An error of `failures`.
    package init(failures: [Failure]) {
        self.failures = failures
    }

    /// One failure per line, after a count.
    public var description: String {
        "save refused, \(failures.count) validation failure(s):\n"
            + failures.map { "  \($0)" }.joined(separator: "\n")
    }
}
