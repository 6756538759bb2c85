import StrataCore

/// A record converted for writing: its cells, the objects it links to by a
/// key, and the nested records it owns; kept until its batch is written.
package struct PreparedRecord {
    /// A link to existing (or found-or-created) objects by their `relatedBy` value.
    struct Link {
        /// The relationship, by index into the plan's relationships.
        let slot: Int
        /// The destination keys, converted to the `relatedBy` attribute's type.
        let keys: [ImportCell]
        /// Where the value was read.
        let position: SourcePosition
        /// How the keys name the destinations.
        var kind: LinkKind = .relatedBy
    }

    /// Nested records of one relationship (a recipe's ingredients).
    struct Children {
        /// The relationship, by index into the plan's relationships.
        let slot: Int
        /// The records, in input order.
        let records: [PreparedRecord]
    }

    /// The entity the record becomes.
    let plan: EntityImportPlan
    /// One cell per column of the plan, owned.
    var cells: [ImportCell]
    /// Where the record starts.
    let position: SourcePosition
    /// Links by key.
    var links: [Link] = []
    /// Nested records.
    var children: [Children] = []
    /// The record's `_id` field (`Species/p3`, as `strata export --ids`
    /// writes it): links of the same input by that id find its object.
    var sourceID: String?
    /// Where each attribute's value was read, for messages: a short list
    /// (one entry per field), searched only when a value is refused.
    var attributePositions: [(attribute: Int, position: SourcePosition)] = []

    /// The position of attribute `index`'s value, or the record's.
    func position(ofAttribute index: Int?) -> SourcePosition {
        guard let index else { return position }
        return attributePositions.last { $0.attribute == index }?.position ?? position
    }
}
