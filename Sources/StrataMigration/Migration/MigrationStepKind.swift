/// What a ``MigrationStep`` changes. The raw value is the spelling used in
/// printed plans and their JSON form.
public enum MigrationStepKind: String, CaseIterable, Hashable, Sendable {
    /// A new entity; its objects start out empty.
    case addEntity = "add-entity"
    /// An entity that is gone, with all its objects.
    case removeEntity = "remove-entity"
    /// An entity renamed through its `renamedFrom`.
    case renameEntity = "rename-entity"
    /// An entity whose Core Data number (`Z_ENT`) changes, because entities
    /// are numbered by name and inheritance.
    case renumberEntity = "renumber-entity"
    /// An entity that gains, loses or changes its parent.
    case changeParent = "change-parent"
    /// An entity that becomes abstract or concrete.
    case changeAbstract = "change-abstract"
    /// A new attribute.
    case addAttribute = "add-attribute"
    /// An attribute that is gone, with its values.
    case removeAttribute = "remove-attribute"
    /// An attribute renamed through its `renamedFrom`.
    case renameAttribute = "rename-attribute"
    /// A new relationship.
    case addRelationship = "add-relationship"
    /// A relationship that is gone, with its links.
    case removeRelationship = "remove-relationship"
    /// A relationship renamed through its `renamedFrom`.
    case renameRelationship = "rename-relationship"
    /// A property that moves up to an ancestor or down to a subentity.
    case moveProperty = "move-property"
    /// An optional property that becomes required.
    case makeRequired = "make-required"
    /// A required property that becomes optional.
    case makeOptional = "make-optional"
    /// An attribute type that holds every old value (integer16 to integer64,
    /// float to double, …).
    case widenType = "widen-type"
    /// Any other change of an attribute's type, or of a relationship's
    /// destination.
    case changeType = "change-type"
    /// A to-one relationship that becomes to-many.
    case toOneToToMany = "to-one-to-to-many"
    /// A to-many relationship that becomes to-one.
    case toManyToToOne = "to-many-to-to-one"
    /// An unordered to-many relationship that becomes ordered.
    case makeOrdered = "make-ordered"
    /// An ordered to-many relationship that becomes unordered.
    case makeUnordered = "make-unordered"
    /// A new index (an `indexed` attribute or a fetch index).
    case addIndex = "add-index"
    /// An index that is gone.
    case removeIndex = "remove-index"
    /// A new uniqueness constraint.
    case addUniquenessConstraint = "add-uniqueness"
    /// A uniqueness constraint that is gone.
    case removeUniquenessConstraint = "remove-uniqueness"
    /// A change that only alters Core Data's version hash (a
    /// `versionHashModifier`, relationship counts, attribute storage flags).
    case changeVersionHash = "change-version-hash"
}
