@testable import Strata
@testable import StrataSchema

/// Small models drawn by the diagram tests, built in code.
enum DiagramTestModels {
    /// A relationship with its inverse and cardinality set.
    static func relationship(
        _ name: String, to destination: String, inverse: String = "", toMany: Bool = false
    ) -> Relationship {
        Relationship(name: name, destination: destination, inverse: inverse, isToMany: toMany)
    }

    /// A shop: a to-many/to-one pair (Customer.orders, Order.customer), a
    /// relationship without an inverse (Note.order), an abstract parent
    /// (Item) with a subentity (Book), and a self-inverse pair (Person.spouse).
    static var shop: Model {
        var item = Entity(name: "Item", attributes: [Attribute(name: "price", type: .decimal)])
        item.isAbstract = true
        return Model(
            name: "Shop", version: 1,
            entities: [
                Entity(
                    name: "Customer", attributes: [Attribute(name: "name", type: .string)],
                    relationships: [
                        relationship("orders", to: "Order", inverse: "customer", toMany: true)
                    ]),
                Entity(
                    name: "Order", attributes: [Attribute(name: "total", type: .double)],
                    relationships: [relationship("customer", to: "Customer", inverse: "orders")]),
                Entity(name: "Note", relationships: [relationship("order", to: "Order")]),
                item,
                Entity(
                    name: "Book", parent: "Item",
                    attributes: [Attribute(name: "isbn", type: .string)]),
                Entity(
                    name: "Person",
                    relationships: [relationship("spouse", to: "Person", inverse: "spouse")]),
            ])
    }
}
