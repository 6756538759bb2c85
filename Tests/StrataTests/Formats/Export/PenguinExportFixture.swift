import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A store of penguins and their species, made by the test: attributes
/// declared out of alphabetical order, values every export format holds
/// (one-line text without `;`, optional values left out), for the
/// both-ways tests of issue 28.
struct PenguinExportFixture {
    /// The schema: `Penguin` lists name, island, mass, flipper, measured,
    /// breeding, notes — not their sorted order.
    static let schema = """
        {
          "format": "strata-schema/1", "model": "Field", "version": 1, "versionIdentifier": "1",
          "entities": {
            "Penguin": {
              "attributes": {
                "name":     { "type": "string" },
                "island":   { "type": "string", "optional": true },
                "mass":     { "type": "integer32", "optional": true },
                "flipper":  { "type": "double", "optional": true },
                "measured": { "type": "date", "optional": true },
                "breeding": { "type": "boolean", "optional": true },
                "notes":    { "type": "string", "optional": true }
              },
              "relationships": {
                "species": { "destination": "Species", "inverse": "penguins", "optional": true }
              }
            },
            "Species": {
              "attributes": {
                "name":  { "type": "string" },
                "genus": { "type": "string", "optional": true }
              },
              "relationships": {
                "penguins": { "destination": "Penguin", "inverse": "species", "toMany": true,
                              "optional": true }
              }
            }
          }
        }
        """

    /// Penguin attributes in the schema's order.
    static let declared = ["name", "island", "mass", "flipper", "measured", "breeding", "notes"]

    let folder: TemporaryDirectory
    let store: Store
    let model: Model

    static func model() throws -> Model {
        try SchemaDecoder().decode(schema, file: "Field/1.json")
    }

    /// `count` penguins of three species; every seventh has no island and
    /// no mass, every fifth no notes.
    init(count: Int = 30) throws {
        folder = try TemporaryDirectory()
        model = try Self.model()
        store = try Store.create(at: folder.file("Field.sqlite"), model: model)
        let context = try Context(store: store, model: model)
        var species: [ManagedObject] = []
        for (name, genus) in [("Adelie", "Pygoscelis"), ("Gentoo", "Pygoscelis"), ("Emperor", nil)]
        {
            let kind = try context.insert("Species")
            try kind.setValue(.string(name), forKey: "name")
            if let genus { try kind.setValue(.string(genus), forKey: "genus") }
            species.append(kind)
        }
        for index in 0..<count {
            let penguin = try context.insert("Penguin")
            try penguin.setValue(.string("Penguin \(index)"), forKey: "name")
            if index % 7 != 0 {
                try penguin.setValue(
                    .string(["Biscoe", "Dream", "Torgersen"][index % 3]), forKey: "island")
                try penguin.setValue(.integer(Int64(3000 + index * 25)), forKey: "mass")
            }
            try penguin.setValue(.real(180.5 + Double(index) / 4), forKey: "flipper")
            try penguin.setValue(.date(700_000_000 + Double(index) * 86_400.5), forKey: "measured")
            try penguin.setValue(.boolean(index % 2 == 0), forKey: "breeding")
            if index % 5 != 0 {
                try penguin.setValue(
                    .string("Seen at dawn, near nest \(index). \"Calm\" — ünïcode"),
                    forKey: "notes")
            }
            try penguin.setObject(species[index % 3], forKey: "species")
        }
        try context.save()
    }

    /// Every penguin's attribute values, by name.
    static func penguins(in store: Store, model: Model) throws -> [String: [String: AttributeValue]]
    {
        let context = try Context(store: store, model: model)
        var result: [String: [String: AttributeValue]] = [:]
        for object in try context.fetch(FetchRequest(entity: "Penguin")) {
            var values: [String: AttributeValue] = [:]
            for name in declared { values[name] = try object.value(forKey: name) }
            guard case .string(let name) = values["name"] else { continue }
            result[name] = values
        }
        return result
    }

    /// Every penguin's species name, by the penguin's name.
    static func species(in store: Store, model: Model) throws -> [String: String] {
        let context = try Context(store: store, model: model)
        var result: [String: String] = [:]
        for object in try context.fetch(FetchRequest(entity: "Penguin")) {
            guard case .string(let name) = try object.value(forKey: "name"),
                let species = try object.object(forKey: "species"),
                case .string(let speciesName) = try species.value(forKey: "name")
            else { continue }
            result[name] = speciesName
        }
        return result
    }

    /// The number of species objects.
    static func speciesCount(in store: Store, model: Model) throws -> Int {
        try Context(store: store, model: model).count(FetchRequest(entity: "Species"))
    }

    /// Imports `input` into a new store of the model with `options`.
    func reimport(_ input: URL, configure: (inout ImportOptions) -> Void) throws -> Store {
        let again = try Store.create(
            at: folder.file("Again-\(UUID().uuidString).sqlite"), model: model)
        var options = ImportOptions(entity: "Penguin")
        configure(&options)
        try Importer.import(input, into: again, model: model, options: options)
        return again
    }
}
