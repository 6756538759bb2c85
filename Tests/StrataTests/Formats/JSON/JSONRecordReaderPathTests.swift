import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Issue 28, point 3: JSON documents with other members. `--path` reads the
/// arrays at dotted paths and passes over the rest; without it, a root
/// object's one array of records is read with a note.
struct JSONRecordReaderPathTests {
    let files: JSONTestFiles

    init() throws {
        files = try JSONTestFiles()
    }

    /// A CycloneDX-shaped SBOM: scalars, a metadata object with an array,
    /// and two arrays of objects at the top.
    static let bom = """
        {
          "bomFormat": "CycloneDX",
          "specVersion": "1.5",
          "version": 1,
          "metadata": {"timestamp": "2024-01-01T00:00:00Z",
                       "tools": [{"vendor": "acme", "name": "scan"}]},
          "components": [
            {"type": "library", "name": "zlib", "version": "1.3",
             "hashes": [{"alg": "SHA-256", "content": "ab"}]},
            {"type": "library", "name": "sqlite", "version": "3.45"}
          ],
          "dependencies": [{"ref": "zlib", "dependsOn": []}]
        }
        """

    private func read(_ text: String, paths: [String], chunkSize: Int = 1 << 20) throws
        -> (outcomes: [JSONOutcome], reader: JSONRecordReader)
    {
        let reader = try JSONRecordReader(
            path: try files.write(text), lines: false, limits: .init(), chunkSize: chunkSize)
        reader.selectedPaths = paths
        return (files.readAll(reader), reader)
    }

    @Test func testPathReadsJustThatArrayWithItsKeyPaths() throws {
        for chunkSize in [1, 3, 1 << 20] {
            let (outcomes, reader) = try read(
                Self.bom, paths: ["components"], chunkSize: chunkSize)
            #expect(outcomes.count == 2, "\(outcomes)")
            #expect(outcomes.map { $0.record?["name"] } == [.text("zlib"), .text("sqlite")])
            #expect(outcomes.allSatisfy { $0.record?.group == "components" })
            expectPosition(
                outcomes[0].record?.position, line: 8, column: 5, keyPath: "components[0]")
            #expect(reader.notes.isEmpty)
        }
    }

    @Test func testSeveralPathsAndANestedOneAreReadInDocumentOrder() throws {
        let (outcomes, _) = try read(
            Self.bom, paths: ["dependencies", "metadata.tools", "components"], chunkSize: 2)
        #expect(
            outcomes.map { $0.record?.group }
                == ["metadata.tools", "components", "components", "dependencies"])
        #expect(outcomes[0].record?["vendor"] == .text("acme"))
        expectPosition(
            outcomes[0].record?.position, line: 6, column: 26, keyPath: "metadata.tools[0]")
    }

    @Test func testAPathThatIsNotThereOrNotAnArrayIsAStructureError() throws {
        let (missing, _) = try read(Self.bom, paths: ["components", "services"])
        #expect(missing.count == 3)
        expectError(
            missing.last, .structure, line: 13, column: 2,
            message: "the document has no array at \"services\"")
        let (object, _) = try read(Self.bom, paths: ["metadata"])
        expectError(
            object.last, .structure, line: 5, column: 15, keyPath: "metadata",
            message: "the value of \"metadata\" is an object; --path leads to an array of objects")
        let (array, _) = try read("[{\"a\": 1}]", paths: ["a"])
        expectError(
            array.last, .structure, line: 1, column: 1,
            message: "the root value is an array; --path leads through objects to an array")
    }

    @Test func testOneArrayBesideOtherMembersIsReadWithANote() throws {
        let text = """
            {"bomFormat": "CycloneDX", "metadata": {"tools": [{"name": "scan"}]},
             "components": [{"name": "zlib"}], "version": 1}
            """
        let (outcomes, reader) = try read(text, paths: [])
        #expect(outcomes.count == 1, "\(outcomes)")
        #expect(outcomes[0].record?["name"] == .text("zlib"))
        #expect(
            reader.notes == [
                "\(reader.file): read the document's one array, \"components\", and left out its "
                    + "other members (\"bomFormat\", \"metadata\", \"version\"); --path chooses the "
                    + "arrays to read"
            ])
    }

    @Test func testSeveralArraysBesideOtherMembersAskForAPath() throws {
        let (outcomes, _) = try read(Self.bom, paths: [])
        expectError(
            outcomes.last, .structure, line: 13, column: 2,
            message:
                "the document holds several arrays (\"components\", \"dependencies\") beside "
                + "other members (\"bomFormat\", \"specVersion\", \"version\", \"metadata\"); "
                + "choose the arrays to read with --path components")
    }

    @Test func testAnObjectOfArraysAloneIsReadAsBeforeWithoutANote() throws {
        let (outcomes, reader) = try read("{\"a\": [{\"x\": 1}], \"b\": [{\"y\": 2}]}", paths: [])
        #expect(outcomes.map { $0.record?.group } == ["a", "b"])
        #expect(reader.notes.isEmpty)
    }
}
