import Foundation
import Testing

/// `strata schema swift`: typed classes of a schema version; collisions are
/// located errors that write nothing.
struct SchemaSwiftCommandTests {
    @Test func testWritesTheClassesOfTheNewestOrAGivenVersion() throws {
        let folder = try ScratchFolder()
        let output = folder.path("Diary.swift")
        let outcome = try StrataRunner.run(["schema", "swift", "Schemas/Diary", "-o", output])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let source = try String(contentsOfFile: output, encoding: .utf8)
        #expect(source.contains("public final class DiaryEntry: ManagedObject, TypedEntity {"))
        #expect(source.contains("public func addToMedia(_ value: Medium)"))
        #expect(outcome.stderr.hasPrefix("wrote \(output): 3 classes of Diary version "))

        let old = try StrataRunner.run([
            "schema", "swift", "Schemas/Diary", "--version", "1", "-o", output,
        ])
        #expect(old.status == 0, "\(old.stderr)")
        let first = try String(contentsOfFile: output, encoding: .utf8)
        #expect(first.contains("public var text: String?"))
        #expect(!first.contains("class Tag"))
    }

    @Test func testCollidingClassNamesAreALocatedErrorAndNothingIsWritten() throws {
        let folder = try ScratchFolder()
        let schema = folder.path("1.json")
        try Data(
            """
            {"format": "strata-schema/1", "model": "Clash", "version": 1, "entities": {
              "Foundation": {"attributes": {"a": {"type": "string", "optional": true}}},
              "FoundationEntity": {"attributes": {"b": {"type": "string", "optional": true}}}}}
            """.utf8
        ).write(to: URL(fileURLWithPath: schema))
        let output = folder.path("Clash.swift")
        let outcome = try StrataRunner.run(["schema", "swift", schema, "-o", output])
        #expect(outcome.status == 1)
        // Foundation's class is renamed FoundationEntity, which is taken.
        #expect(outcome.stderr.contains("\(schema): $.entities.FoundationEntity: its class name"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func testMissingOutputIsAUsageError() throws {
        let outcome = try StrataRunner.run(["schema", "swift", "Schemas/Diary"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("-o"))
    }
}
