import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A store of one entity with an attribute of every type, filled with
/// values at the edges of each type, for export round trips.
struct ExportKindsFixture {
    static let schema = """
        {
          "format": "strata-schema/1", "model": "Kinds", "version": 1, "versionIdentifier": "1",
          "entities": {
            "Item": {
              "attributes": {
                "text":    { "type": "string", "optional": true },
                "label":   { "type": "string", "optional": true },
                "small":   { "type": "integer16", "optional": true },
                "medium":  { "type": "integer32", "optional": true },
                "large":   { "type": "integer64", "optional": true },
                "amount":  { "type": "decimal", "optional": true },
                "ratio":   { "type": "double", "optional": true },
                "weight":  { "type": "float", "optional": true },
                "flag":    { "type": "boolean", "optional": true },
                "when":    { "type": "date", "optional": true },
                "bytes":   { "type": "binary", "optional": true },
                "photo":   { "type": "binary", "optional": true, "media": true,
                             "externalStorage": true },
                "key":     { "type": "uuid", "optional": true },
                "link":    { "type": "uri", "optional": true },
                "blob":    { "type": "transformable", "optional": true }
              }
            }
          }
        }
        """

    let folder: TemporaryDirectory
    let store: Store
    let model: Model

    static func model() throws -> Model {
        try SchemaDecoder().decode(schema, file: "Kinds/1.json")
    }

    /// Rows of values at the edges of each type. `textFits` keeps them to
    /// what txt blocks can hold: `label` without outer spaces (a header),
    /// `text` (the body) without CR and not empty, no object without values.
    static func rows(textFits: Bool = false) -> [[String: AttributeValue]] {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        return [
            [
                "text": .string("plain"), "label": .string("ünïcödé 🌍, \"quoted\""),
                "small": .integer(-32768), "medium": .integer(2_147_483_647),
                "large": .integer(Int64.min), "amount": .real(12.5), "ratio": .real(0.1),
                "weight": .real(1.5), "flag": .boolean(true), "when": .date(757_382_400.125),
                "bytes": .data(Data([0, 1, 2, 255])), "photo": .data(png),
                "key": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()),
                "link": .string("https://example.org/a?b=c&d=e"), "blob": .data(Data([7, 7])),
            ],
            [
                "text": .string(
                    textFits
                        ? "two lines,\nwith \"quotes\"" : "two lines,\nwith \"quotes\"\r\nand CRLF"),
                "label": .string(textFits ? "x" : "  spaced  "),
                "small": .integer(32767), "medium": .integer(-2_147_483_648),
                "large": .integer(Int64.max), "amount": .real(-0.001), "ratio": .real(-2.5e300),
                "weight": .real(-3.25), "flag": .boolean(false), "when": .date(-86_400.5),
                "ratio2": .real(0), "bytes": .data(Data(repeating: 0xAB, count: 300)),
            ],
            ["ratio": .real(1e-7), "when": .date(0), "text": .string(textFits ? "body" : "")],
            textFits ? ["flag": .boolean(false)] : [:],
        ]
    }

    init(rows: [[String: AttributeValue]] = ExportKindsFixture.rows()) throws {
        folder = try TemporaryDirectory()
        model = try Self.model()
        store = try Store.create(at: folder.file("Kinds.sqlite"), model: model)
        let context = try Context(store: store, model: model)
        for row in rows {
            let item = try context.insert("Item")
            for (key, value) in row where key != "ratio2" {
                try item.setValue(value, forKey: key)
            }
        }
        try context.save()
    }

    /// Every object's values, by primary key order.
    static func values(of store: Store, model: Model) throws -> [[String: AttributeValue]] {
        let context = try Context(store: store, model: model)
        var request = FetchRequest(entity: "Item")
        request.sortDescriptors = []
        let names = model.allAttributes(of: "Item").map(\.name)
        return try context.fetch(request).map { object in
            var values: [String: AttributeValue] = [:]
            for name in names { values[name] = try object.value(forKey: name) }
            return values
        }
    }

    /// Imports `file` into a new store of the same model.
    func reimport(
        _ file: URL, format: ImportFormat, mediaFolder: URL? = nil, name: String = "Again",
        fieldMap: [String: String] = [:]
    ) throws -> Store {
        let again = try Store.create(at: folder.file("\(name).sqlite"), model: model)
        var options = ImportOptions(entity: "Item")
        options.fieldMap = fieldMap
        options.mediaFolder = mediaFolder
        let importer = try Importer(store: again, model: model, options: options)
        switch try ImportReaders.open(
            file.path, format: format, reading: ImportReadingOptions(), limits: ImportLimits())
        {
        case .fields(let reader): _ = try importer.run(reader)
        case .records(let reader): _ = try importer.run(reader)
        }
        return again
    }
}
