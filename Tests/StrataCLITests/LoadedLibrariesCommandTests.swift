import Foundation
import Testing

/// What a one-shot command loads (issue 32's start-up): libxml2 and
/// libarchive only when a document or a zip is read or written, libcrypto
/// never as a shared library (its digests are linked in). Each loaded
/// library cost every command a share of a millisecond.
struct LoadedLibrariesCommandTests {
    /// The shared libraries a run of `strata` opened, as the dynamic loader
    /// reports them (`LD_DEBUG=files`: `file=libxml2.so.2 [0]; …` on
    /// stderr), with what the run printed.
    static func loadedLibraries(_ arguments: [String]) throws -> (
        outcome: StrataRunner.Outcome, libraries: Set<String>
    ) {
        let outcome = try ProgramRunner.run(
            try StrataRunner.executable(), arguments, in: StrataRunner.packageRoot,
            environment: ["LD_DEBUG": "files"])
        var libraries: Set<String> = []
        for line in outcome.stderr.split(separator: "\n") {
            guard let start = line.range(of: "file=") else { continue }
            let name = line[start.upperBound...].prefix { $0 != " " }
            libraries.insert(String(name))
        }
        return (outcome, libraries)
    }

    /// Whether any library in `libraries` is the one named by `prefix`
    /// (`libxml2.so`), by file name or path.
    static func contains(_ libraries: Set<String>, _ prefix: String) -> Bool {
        libraries.contains { ($0.split(separator: "/").last ?? "").hasPrefix(prefix) }
    }

    /// A new store of the bundled `schemas` model in `folder`.
    static func createStore(_ schemas: String, in folder: ScratchFolder) throws -> String {
        let store = folder.path("\(schemas).sqlite")
        let created = try StrataRunner.run(["create", store, "--schemas", "Schemas/\(schemas)"])
        #expect(created.status == 0, "\(created.stderr)")
        return store
    }

    /// Checks that `arguments` ran and loaded none of `unwanted`.
    static func expectNotLoaded(_ unwanted: [String], running arguments: [String]) throws {
        let (outcome, libraries) = try loadedLibraries(arguments)
        #expect(outcome.status == 0, "\(arguments): \(outcome.stderr.suffix(500))")
        // The run is seen at all: SQLite is always loaded.
        #expect(contains(libraries, "libsqlite3.so"), "\(libraries)")
        for library in unwanted {
            #expect(!contains(libraries, library), "\(arguments) loaded \(library)")
        }
    }

    @Test func testInfoAndQueryLoadNeitherLibxml2NorLibcryptoNorLibarchiveNorICU() throws {
        let folder = try ScratchFolder()
        let store = try Self.createStore("Notes", in: folder)
        for arguments in [["info", store], ["query", store, "Note", "--count"]] {
            try Self.expectNotLoaded(
                [
                    "libxml2.so", "libcrypto.so", "libarchive.so", "libicuuc.so", "libicui18n.so",
                    "libmicrohttpd.so",
                ],
                running: arguments)
        }
    }

    @Test func testAStoreWhoseModelHasAPlainPatternIsReadWithoutICU() throws {
        // The Diary's `Medium.type` has the pattern ^(image|sound)$: neither
        // reading the stored schema nor making a context compiles it.
        let folder = try ScratchFolder()
        let store = try Self.createStore("Diary", in: folder)
        for arguments in [["info", store], ["query", store, "DiaryEntry", "--count"]] {
            try Self.expectNotLoaded(["libicuuc.so", "libicui18n.so"], running: arguments)
        }
    }

    @Test func testReadingAnXcodeModelLoadsLibxml2() throws {
        let folder = try ScratchFolder()
        let (outcome, libraries) = try Self.loadedLibraries([
            "schema", "from-xcdatamodel", SchemaFromXcdatamodelCommandTests.bookmarks,
            "-o", folder.path("BookmarksModel"),
        ])
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(500))")
        #expect(Self.contains(libraries, "libxml2.so"), "\(libraries)")
        #expect(!Self.contains(libraries, "libcrypto.so"), "\(libraries)")
    }
}
