/// Where a destination relationship takes its links from, in a mapping file.
///
/// ```json
/// "notebook":  { "from": "folder" }
/// "author":    { "from": "authors", "keep": "first", "sortBy": "name" }
/// "continent": { "findOrCreateBy": "code", "value": "upper(continentCode)" }
/// ```
public enum MappedRelationship: Hashable, Sendable {
    /// Links copied from a source relationship or a path of relationships
    /// (`folder`, `notebook.owner`, or `self` for the source object itself).
    /// When the path reaches several objects and the destination
    /// relationship is to-one, `keep` says which one stays.
    case remap(keyPath: String, keep: Keep?)
    /// Links to destination objects found by the value of their attribute
    /// `key`, created (with `attributes`) when none has the value yet. A
    /// to-many relationship takes a list value (from `split` or `matches`)
    /// and links one object per distinct element.
    case findOrCreate(
        key: String, value: MappingExpression, attributes: [String: MappingExpression])

    /// Which of several objects a to-one relationship keeps.
    public struct Keep: Hashable, Sendable {
        /// Whether the first object stays (else the last).
        public var first: Bool
        /// An attribute of the objects to order them by; without one they
        /// are in the relationship's stored order (ordered relationships) or
        /// by primary key, which is the order they were created in.
        public var sortBy: String?

        /// Creates a rule.
        public init(first: Bool, sortBy: String? = nil) {
            self.first = first
            self.sortBy = sortBy
        }
    }
}
