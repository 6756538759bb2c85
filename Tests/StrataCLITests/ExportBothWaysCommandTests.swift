import Foundation
import Strata
import Testing

/// Issue 28 from the command line: `strata export` in every format import
/// reads (points 5), progress on export, archive and unarchive (point 6),
/// and key paths in `--fields` (point 4, the export half).
struct ExportBothWaysCommandTests {
    private let folder: ScratchFolder
    private let schemas: String
    private let store: String

    /// A `Field` store of 30 penguins of three species, made by the library.
    init() throws {
        folder = try ScratchFolder()
        schemas = folder.path("Field")
        try FileManager.default.createDirectory(
            atPath: schemas, withIntermediateDirectories: true)
        try Data(Self.schema.utf8).write(to: URL(fileURLWithPath: schemas + "/1.json"))
        store = folder.path("Field.sqlite")
        let model = try SchemaDecoder().decode(Self.schema, file: "Field/1.json")
        let opened = try Store.create(at: URL(fileURLWithPath: store), model: model)
        defer { try? opened.close() }  // Saved below; closing is tidiness.
        let context = try Context(store: opened, model: model)
        var species: [ManagedObject] = []
        for name in ["Adelie", "Gentoo", "Emperor"] {
            let kind = try context.insert("Species")
            try kind.setValue(.string(name), forKey: "name")
            species.append(kind)
        }
        for index in 0..<30 {
            let penguin = try context.insert("Penguin")
            try penguin.setValue(.string("Penguin \(index)"), forKey: "name")
            try penguin.setValue(.integer(Int64(3000 + index)), forKey: "mass")
            if index % 4 != 0 {
                try penguin.setValue(.string("Biscoe, \"north\"\nsecond line"), forKey: "island")
            }
            try penguin.setObject(species[index % 3], forKey: "species")
        }
        try context.save()
    }

    static let schema = """
        {
          "format": "strata-schema/1", "model": "Field", "version": 1, "versionIdentifier": "1",
          "entities": {
            "Penguin": {
              "attributes": {
                "name":   { "type": "string" },
                "mass":   { "type": "integer32", "optional": true },
                "island": { "type": "string", "optional": true }
              },
              "relationships": {
                "species": { "destination": "Species", "inverse": "penguins", "optional": true }
              }
            },
            "Species": {
              "attributes": { "name": { "type": "string" } },
              "relationships": {
                "penguins": { "destination": "Penguin", "inverse": "species", "toMany": true,
                              "optional": true }
              }
            }
          }
        }
        """

    /// The store's penguins as CSV (sorted by name): what two stores are
    /// compared by.
    private func penguins(_ store: String) throws -> String {
        let output = folder.path(UUID().uuidString + ".csv")
        let outcome = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--sort", "name",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    @Test func testEveryFormatBothWaysTSVFromTheName() throws {
        let output = folder.path("penguins.tsv")
        let exported = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output,
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.hasPrefix("Exported 30 Penguin to \(output) (tsv, "))
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.hasPrefix("name\tmass\tisland\nPenguin 0\t3000\t\nPenguin 1\t3001\t\"Biscoe"))
        let again = folder.path("Again.sqlite")
        let imported = try StrataRunner.run([
            "import", again, output, "--schemas", schemas, "--entity", "Penguin",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try penguins(again) == penguins(store))
    }

    @Test func testEveryFormatBothWaysTextLinesSaysHowToReadThemBack() throws {
        let output = folder.path("penguins.txt")
        let exported = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--format", "txt-lines",
            "--delimiter", "|", "--fields", "name,mass",
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(
            exported.stdout.hasSuffix(
                "Read it back with: strata import <store> \(output) --format txt-lines "
                    + "--delimiter '|' --columns name,mass\n"))
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("Penguin 0|3000\n"))
        let again = folder.path("Again.sqlite")
        let imported = try StrataRunner.run([
            "import", again, output, "--schemas", schemas, "--entity", "Penguin", "--format",
            "txt-lines", "--delimiter", "|", "--columns", "name,mass",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("30 inserted"))
        // A line break in a value has no txt-lines form: refused, nothing written.
        let refused = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", folder.path("bad.txt"), "--format",
            "txt-lines", "--delimiter", "|",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Penguin/p2.island: txt lines cannot hold this value"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("bad.txt")))
    }

    @Test func testEveryFormatBothWaysTextFilesWritesAFolder() throws {
        let output = folder.path("notes")
        let exported = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--format", "txt-files",
            "--fields", "name,mass", "--sort", "name",
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(names.count == 30)
        #expect(names.first == "000001 Penguin 0.txt")
        #expect(
            try String(contentsOfFile: output + "/000001 Penguin 0.txt", encoding: .utf8)
                == "mass: 3000\nPenguin 0\n")
        // No work folder left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
                .filter { $0.hasPrefix(".") }.isEmpty)
        let again = folder.path("Again.sqlite")
        let imported = try StrataRunner.run([
            "import", again, output, "--schemas", schemas, "--entity", "Penguin", "--map",
            "title=name", "--map", "modified=",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("30 inserted"))

        // An existing folder with files is kept unless --force.
        let kept = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--format", "txt-files",
            "--fields", "name", "--limit", "2",
        ])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("the folder is not empty; not replacing it"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).count == 30)
        let replaced = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--format", "txt-files",
            "--fields", "name", "--limit", "2", "--force",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).count == 2)
    }

    /// Imports a JSON array with one bad record, rejects to `name`; checks
    /// the rejects file with `check`, fixes it and imports it again.
    private func rejectsImportAgain(as name: String, check: (String) -> Void) throws {
        let input = folder.path("in.json")
        try Data(
            #"[{"name": "Ok", "mass": 1}, {"name": "Bad", "mass": "heavy"}]"#.utf8
        ).write(to: URL(fileURLWithPath: input))
        let rejects = folder.path(name)
        let first = try StrataRunner.run([
            "import", folder.path("A.sqlite"), input, "--schemas", schemas, "--entity", "Penguin",
            "--on-error", "skip", "--rejects", rejects,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        check(text)
        // Fixed, the rejects file imports as it is, its format from its name.
        try Data(text.replacingOccurrences(of: #""heavy""#, with: "2").utf8)
            .write(to: URL(fileURLWithPath: rejects))
        let again = try StrataRunner.run([
            "import", folder.path("A.sqlite"), rejects, "--entity", "Penguin",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("1 inserted"))
    }

    @Test func testEveryFormatBothWaysRejectsOfAJSONArrayImportAgainAsJSONLines() throws {
        try rejectsImportAgain(as: "rejects.jsonl") { text in
            #expect(text.hasPrefix(#"{"strata_error":"#))
            #expect(text.hasSuffix(#""name": "Bad", "mass": "heavy"}"# + "\n"))
        }
    }

    @Test func testEveryFormatBothWaysRejectsNamedJSONAreOneArrayThatImportsAgain() throws {
        // One reject on one line: still a JSON array, as its name says.
        try rejectsImportAgain(as: "rejects.json") { text in
            #expect(text.hasPrefix(#"[{"strata_error":"#), "\(text)")
            #expect(text.hasSuffix(#""name": "Bad", "mass": "heavy"}]"# + "\n"), "\(text)")
        }
    }

    @Test func testExportFieldsSpeciesNameWritesTheRelatedName() throws {
        let output = folder.path("penguins.csv")
        let outcome = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--fields",
            "name,species.name,species", "--limit", "2",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(
            try String(contentsOfFile: output, encoding: .utf8)
                == "name,species.name,species\r\nPenguin 0,Adelie,Species/p1\r\n"
                + "Penguin 1,Gentoo,Species/p2\r\n")
        let json = folder.path("penguins.json")
        let asJSON = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", json, "--fields", "name,species.name",
            "--limit", "1",
        ])
        #expect(asJSON.status == 0, "\(asJSON.stderr)")
        #expect(
            try String(contentsOfFile: json, encoding: .utf8)
                == "[\n{\"name\":\"Penguin 0\",\"species.name\":\"Adelie\"}\n]\n")
    }

    @Test func testExportFieldsRefusesKeyPathsItCannotWrite() throws {
        let toMany = try StrataRunner.run([
            "export", store, "--entity", "Species", "-o", folder.path("s.csv"), "--fields",
            "name,penguins.name",
        ])
        #expect(toMany.status == 1)
        #expect(
            toMany.stderr.contains(
                "cannot write the field 'penguins.name': Species.penguins is to-many"))
        let unknown = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", folder.path("p.csv"), "--fields",
            "species.colour",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("cannot write the field 'species.colour'"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("p.csv")))
    }

    @Test func testExportProgressPrintsProgressLines() throws {
        let output = folder.path("penguins.csv")
        let outcome = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", output, "--progress",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr == "\(output): 0%, 0 Penguin\n\(output): 100%, 30 Penguin\n")
        let quiet = try StrataRunner.run([
            "export", store, "--entity", "Penguin", "-o", folder.path("quiet.csv"),
        ])
        #expect(quiet.stderr == "")
    }

    @Test func testArchiveAndUnarchiveProgressPrintProgressLines() throws {
        let bundle = folder.path("field.zip")
        let archived = try StrataRunner.run(["archive", store, "-o", bundle, "--progress"])
        #expect(archived.status == 0, "\(archived.stderr)")
        #expect(archived.stderr.contains("\(bundle): [1/2] 100%, 30 Penguin\n"))
        #expect(archived.stderr.contains("\(bundle): [2/2] 100%, 3 Species\n"))
        let restored = folder.path("Restored.sqlite")
        let unarchived = try StrataRunner.run(["unarchive", bundle, restored, "--progress"])
        #expect(unarchived.status == 0, "\(unarchived.stderr)")
        #expect(unarchived.stderr.contains("100%, 30 Penguin\n"))
        #expect(unarchived.stderr.contains("100%, 3 Species\n"))
        #expect(try penguins(restored) == penguins(store))
        for command in ["archive", "unarchive"] {
            let help = try StrataRunner.run([command, "--help"])
            #expect(help.stdout.contains("--progress"))
        }
    }
}
