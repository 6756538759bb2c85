import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

private typealias S = MappingTestSupport

/// Issue 26: more of the documented shapes, built as files, read, converted
/// and run — UnCloudNotes' filtered entity split (a `FETCH` filter, a link
/// from `$source` back to the note it came from), a value computed by the
/// policy class (`FUNCTION($entityPolicy, …)`), and a mapping model spanning
/// versions beside the adjacent ones.
struct MappingModelShapesTests {
    static let notes2 = #"""
        { "Note": { "attributes": {
            "title": { "type": "string" },
            "image": { "type": "binary", "optional": true } } } }
        """#
    static let notes3 = #"""
        {
          "Note": {
            "attributes": { "title": { "type": "string" } },
            "relationships": {
              "attachments": { "destination": "Attachment", "inverse": "note", "toMany": true,
                               "optional": true } } },
          "Attachment": {
            "attributes": { "image": { "type": "binary", "optional": true } },
            "relationships": {
              "note": { "destination": "Note", "inverse": "attachments", "optional": true } } }
        }
        """#

    /// UnCloudNotes' `UnCloudNotesMappingModel_v2_to_v3`, as Xcode's package
    /// stores it: NoteToNote, and NoteToAttachment for notes with an image.
    static func unCloudNotes(_ v2: Model, _ v3: Model) -> MappingModelFixture {
        MappingModelFixture(
            sourceModel: v2, destinationModel: v3,
            sourcePath:
                "UnCloudNotes/UnCloudNotesDataModel.xcdatamodeld/UnCloudNotesDataModel v2.xcdatamodel",
            destinationPath:
                "UnCloudNotes/UnCloudNotesDataModel.xcdatamodeld/UnCloudNotesDataModel v3.xcdatamodel",
            mappings: [
                .init(
                    source: "Note", destination: "Attachment", number: 2, filter: "image != nil",
                    attributes: [.init("image", expression: .source("image"))],
                    relationships: [
                        .init("note", sourceKeyPath: "$source", sourceMappingName: "NoteToNote")
                    ]),
                .init(
                    source: "Note", destination: "Note", number: 1, attributes: [.init("title")],
                    relationships: [.init("attachments")]),
            ])
    }

    @Test func testAFilteredSplitLinksEachNewObjectToItsNote() throws {
        let v2 = try S.model("UnCloudNotes", 2, Self.notes2)
        let v3 = try S.model("UnCloudNotes", 3, Self.notes3)
        let fixture = Self.unCloudNotes(v2, v3)
        for model in [
            try XcodeMappingModelReader().readXML(data: Data(fixture.xml().utf8), file: "a.xml"),
            try XcodeMappingModelReader().readCompiled(data: fixture.cdm(), file: "a.cdm"),
        ] {
            let converted = try MappingModelConverter(versions: [v2, v3]).convert(model)
            let attachment = try #require(converted.mapping.entity(named: "Attachment"))
            #expect(attachment.condition == "image != nil" && attachment.createsObjects)
            #expect(attachment.relationships == ["note": .remap(keyPath: "self", keep: nil)])
            #expect(converted.mapping.discarded == ["Note.image"])
            let store = try MappingFixture(v2) { context in
                for (title, image) in [("a", Data([1])), ("b", nil), ("c", Data([3]))] {
                    let note = try context.insert("Note")
                    try note.set("title", title)
                    try note.setValue(image.map { .data($0) }, forKey: "image")
                }
            }
            let context = try store.migrate(to: v3, with: converted.mapping)
            #expect(
                try context.all("Attachment").map {
                    try $0.object(forKey: "note")?.string("title")
                } == ["a", "c"])
            #expect(
                try context.all("Note").map { try $0.objects(forKey: "attachments").count }
                    == [1, 0, 1])
        }
    }

    @Test func testAValueThePolicyComputesIsLeftToIt() throws {
        let v2 = try S.model("UnCloudNotes", 2, Self.notes2)
        let v3 = try S.model("UnCloudNotes", 3, Self.notes3)
        var fixture = Self.unCloudNotes(v2, v3)
        fixture.mappings[1].attributes = [
            .init(
                "title",
                expression: .function(
                    .variable("entityPolicy"), "titleWithNote:", [.source("title")]))
        ]
        let model = try XcodeMappingModelReader().readXML(
            data: Data(fixture.xml().utf8), file: "Notes.xcmappingmodel/xcmapping.xml")
        let error = try #require(throws: MappingModelError.self) {
            try MappingModelConverter(versions: [v2, v3]).convert(model)
        }
        #expect(
            error.description.contains(
                "FUNCTION($entityPolicy, \"titleWithNote:\", $source.title) calls a method of the "
                    + "entity mapping's policy, but the entity mapping names no policy class"),
            "\(error)")
        fixture.mappings[1].policy = "UnCloudNotes.NotePolicy"
        let converted = try MappingModelConverter(versions: [v2, v3]).convert(
            XcodeMappingModelReader().readXML(
                data: Data(fixture.xml().utf8), file: "Notes.xcmappingmodel/xcmapping.xml"))
        #expect(converted.mapping.entity(named: "Note")?.policy == "UnCloudNotes.NotePolicy")
        #expect(converted.mapping.entity(named: "Note")?.attributes["title"] == nil)
        #expect(
            converted.report.description.contains(
                #"policy    title = FUNCTION($entityPolicy, "titleWithNote:", $source.title) (a method of UnCloudNotes.NotePolicy)"#
            ),
            "\(converted.report)")
    }

    /// Versions 1 → 3 in one mapping model beside 1 → 2 and 2 → 3: the store
    /// at version 1 takes the span, one at version 2 the adjacent file.
    @Test func testASpanBesideAdjacentModelsIsTakenStraightFromItsStart() throws {
        let v1 = try S.model("UnCloudNotes", 1, Self.notes2)
        let v2 = try S.model(
            "UnCloudNotes", 2,
            #"{ "Note": { "attributes": { "title": { "type": "string" } } } }"#)
        let v3 = try S.model("UnCloudNotes", 3, Self.notes3)
        let directory = try TemporaryDirectory()
        let schemas = directory.file("Schemas/UnCloudNotes")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        for version in [v1, v2, v3] {
            try SchemaEncoder().encodeData(version)
                .write(to: schemas.appendingPathComponent("\(version.version).json"))
        }
        let converter = MappingModelConverter(versions: [v1, v2, v3])
        let span = Self.unCloudNotes(v1, v3)
        let first = MappingModelFixture(
            sourceModel: v1, destinationModel: v2,
            mappings: [
                .init(source: "Note", destination: "Note", number: 1, attributes: [.init("title")])
            ])
        let second = MappingModelFixture(
            sourceModel: v2, destinationModel: v3,
            mappings: [
                .init(
                    source: "Note", destination: "Note", number: 1, attributes: [.init("title")],
                    relationships: [.init("attachments")])
            ])
        var names: [String] = []
        for fixture in [span, first, second] {
            let converted = try converter.convert(
                XcodeMappingModelReader().readCompiled(data: fixture.cdm(), file: "m.cdm"))
            try converted.data.write(to: schemas.appendingPathComponent(converted.fileName))
            names.append(converted.fileName)
        }
        #expect(names == ["1-3.mapping.json", "1-2.mapping.json", "2-3.mapping.json"])
        let url = directory.file("Notes.sqlite")
        try {
            let store = try Store.create(at: url, model: v1)
            defer { try? store.close() }  // Saved below.
            let context = try Context(store: store, model: v1)
            let note = try context.insert("Note")
            try note.set("title", "kept")
            try note.setValue(.data(Data([9])), forKey: "image")
            try context.save()
        }()
        let migrator = try Migrator(storeAt: url, schemas: schemas)
        #expect(try migrator.preview().stages.map(\.stage.name) == ["1-3"])
        try migrator.run()
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Reading only.
        let context = try Context(store: store, model: v3)
        // The image crossed version 2, which has no place for it.
        #expect(
            try context.all("Attachment").map { try $0.value(forKey: "image") } == [
                .data(Data([9]))
            ])
    }
}
