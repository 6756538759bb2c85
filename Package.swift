// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Strata",
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        // The web view and static HTML export, for a program of its own.
        .library(name: "StrataWeb", targets: ["StrataWeb"]),
        .executable(name: "strata", targets: ["strata"]),
        // Typed entity classes from a target's schema folders, at build time.
        .plugin(name: "StrataModelPlugin", targets: ["StrataModelPlugin"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libxml2 (libxml2-dev), loaded on the first document parsed, not
        // linked: it and the ICU it brings cost every command about 0.6 ms
        // at start-up (include/CLibXML2.h).
        .target(name: "CLibXML2", dependencies: ["CLibraryLoader"]),
        // zlib, and libarchive (libarchive-dev) for writing zips: loaded on the
        // first zip written, not linked, since it and its seven libraries
        // cost every command about 2 ms at start-up (include/CArchive.h).
        .target(
            name: "CArchive", dependencies: ["CLibraryLoader"],
            linkerSettings: [.linkedLibrary("z")]),
        // SHA-256 from libcrypto (libssl-dev): it uses the CPU's SHA
        // instructions where there are some, several times the speed of
        // portable code; bundles hash every byte they carry. Linked from
        // its static archive (the module map's `link ":libcrypto.a"`): the
        // digests take about 50 KB of it, while loading the shared library
        // cost every command about 0.6 ms at start-up.
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // ICU's regular expressions (libicu-dev). A C target, not a system
        // library: Foundation's own ICU headers clash with Debian's in one
        // module, so only shim.c includes them (see include/shim.h). ICU is
        // loaded on the first pattern compiled, not linked (start-up time).
        .target(name: "CICU", dependencies: ["CLibraryLoader"]),
        // libmicrohttpd (libmicrohttpd-dev), the web view's HTTP server:
        // loaded when a server starts, not linked (it brings GnuTLS and
        // eleven more libraries every command would load at start-up).
        .target(name: "CMicroHTTPD", dependencies: ["CLibraryLoader"]),
        // The one dlopen and dlsym loop of the four targets above.
        .target(name: "CLibraryLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Linux calls Swift's Glibc module leaves out (sync_file_range), and
        // an SQLite VFS that writes a store being built in large pieces.
        .target(name: "CFileSystem", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The layers (ARCHITECTURE.md): each target uses only those below it.
        // Values: the one value tree, byte codecs, digests and bounded regular
        // expressions; all a schema needs, so the model plugin's tool builds
        // no SQLite, XML or zip code.
        .target(name: "StrataValues", dependencies: ["CICU", "CCrypto"], exclude: ["README.md"]),
        // Core: SQLite, XML, zip and raw deflate and work files, each over the
        // one C library it wraps; re-exports Values.
        .target(
            name: "StrataCore",
            dependencies: ["StrataValues", "CSQLite", "CLibXML2", "CArchive", "CFileSystem"],
            exclude: ["README.md"]
        ),
        // Schema: the model, its JSON format, validation, version hashes,
        // attribute rules and the correspondences between versions.
        .target(name: "StrataSchema", dependencies: ["StrataValues"], exclude: ["README.md"]),
        // Store: the Core Data SQLite store (layout, metadata, locks, the row
        // layer every writer goes through) and the Core Data formats it
        // needs (binary property lists, keyed archives, model caches, Xcode
        // models).
        .target(
            name: "StrataStore",
            dependencies: ["StrataCore", "StrataSchema"],
            exclude: ["README.md", "Store/Rows/README.md"]
        ),
        // Query: NSPredicate's language (parsing, checking, SQL, evaluation)
        // and the expression language of mappings and computed attributes.
        .target(
            name: "StrataQuery", dependencies: ["StrataCore", "StrataSchema", "StrataStore"],
            exclude: ["README.md"]
        ),
        // Context: the object graph (Core Data's managed object context):
        // fetching, faulting, validation, saving through the row layer.
        .target(
            name: "StrataContext",
            dependencies: ["StrataCore", "StrataSchema", "StrataStore", "StrataQuery"],
            exclude: ["README.md"]
        ),
        // Migration: plans between model versions, the staged migrator,
        // mapping files and custom Swift steps.
        .target(
            name: "StrataMigration",
            dependencies: [
                "StrataCore", "StrataSchema", "StrataStore", "StrataQuery", "StrataContext",
            ],
            exclude: ["README.md"]
        ),
        // Formats: text, CSV, JSON, property lists, bundles and Day One,
        // read into stores and written from them.
        .target(
            name: "StrataFormats",
            dependencies: [
                "StrataCore", "StrataSchema", "StrataStore", "StrataQuery", "StrataContext",
            ],
            exclude: ["README.md"]
        ),
        // Codegen: typed Swift classes from a schema, for `strata schema swift`
        // and the StrataModelPlugin, which builds only this and the schema.
        .target(name: "StrataCodegen", dependencies: ["StrataSchema"], exclude: ["README.md"]),
        // Diagram: Graphviz DOT of a model or of what a migration changes.
        .target(
            name: "StrataDiagram", dependencies: ["StrataCore", "StrataSchema"],
            exclude: ["README.md"]),
        // Jobs: what combines layers — seeding a default store, unarchiving
        // then migrating.
        .target(
            name: "StrataJobs",
            dependencies: [
                "StrataCore", "StrataSchema", "StrataStore", "StrataQuery", "StrataContext",
                "StrataMigration", "StrataFormats",
            ],
            exclude: ["README.md"]
        ),
        // Web: the read-only view of a store (`strata serve`) over HTTP, and
        // the same pages as a static site (`strata export --format html`).
        // Not in `Strata`: an app using the library needs no HTTP server.
        .target(
            name: "StrataWeb",
            dependencies: [
                "StrataCore", "StrataSchema", "StrataStore", "StrataQuery", "StrataContext",
                "StrataMigration", "StrataFormats", "StrataDiagram", "StrataJobs", "CMicroHTTPD",
            ],
            exclude: ["README.md"]
        ),
        // The library users import: every layer's public API, re-exported.
        .target(
            name: "Strata",
            dependencies: [
                "StrataValues", "StrataCore", "StrataSchema", "StrataStore", "StrataQuery",
                "StrataContext", "StrataMigration", "StrataFormats", "StrataCodegen", "StrataDiagram",
                "StrataJobs",
            ],
            exclude: ["README.md", "Strata.docc"]
        ),
        .executableTarget(
            name: "strata",
            dependencies: ["Strata", "StrataWeb"],
            exclude: ["README.md"]
        ),
        // The StrataModelPlugin's tool: `strata schema swift` without the rest
        // of the command.
        .executableTarget(
            name: "strata-codegen",
            dependencies: ["StrataSchema", "StrataCodegen"]
        ),
        .plugin(
            name: "StrataModelPlugin",
            capability: .buildTool(),
            dependencies: ["strata-codegen"]
        ),
        // A second process for the context's two-process conflict test.
        .executableTarget(
            name: "strata-test-writer",
            dependencies: ["Strata"],
            path: "Tests/Helpers/strata-test-writer"
        ),
        // Processes that open a first-run store together, or die while seeding it.
        .executableTarget(
            name: "strata-test-seeder",
            dependencies: ["Strata"],
            path: "Tests/Helpers/strata-test-seeder"
        ),
        // The benchmark runner (`make bench`); no test depends on it.
        .executableTarget(
            name: "strata-bench",
            dependencies: ["Strata", "StrataWeb"],
            path: "Benchmarks",
            exclude: ["README.md", "corpus", "ab-cpu.sh"]
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "StrataWeb"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StrataCLITests",
            dependencies: ["Strata"]
        ),
        // Generated typed classes (committed, checked against the generator)
        // in use; compiles every bundled model's classes with swiftc.
        .testTarget(
            name: "StrataTypedTests",
            dependencies: ["Strata"],
            exclude: ["Schemas"]
        ),
    ]
)

// Fuzzing (Fuzz/README.md): the parsers' entry points, and the test that runs the committed seeds
// and reproducers through them. The libFuzzer executable (every target in one, picked by the
// name it runs under) is built only by Fuzz/run.sh, with `--sanitize fuzzer`: in a plain build it
// would do nothing, and linking it there cost every `make test` time for no check.
package.targets += [
    .target(
        name: "StrataFuzzing", dependencies: ["Strata", "StrataWeb"], path: "Fuzz/StrataFuzzing"),
    .testTarget(name: "StrataFuzzingTests", dependencies: ["StrataFuzzing"]),
]
if Context.environment["STRATA_FUZZING"] != nil {
    package.targets.append(
        .executableTarget(
            name: "fuzz-strata", dependencies: ["StrataFuzzing"], path: "Fuzz/Entry/fuzz-strata"))
}

// The sample apps, built with the package so `make test` runs them without compiling Strata a
// second time (Samples/*/Package.swift build the same sources as standalone apps). A fuzzing
// build (Fuzz/run.sh sets STRATA_FUZZING) leaves them out: its sanitizer flags would reach the
// StrataModelPlugin's tool, which cannot be built with them, once per fuzz target.
if Context.environment["STRATA_FUZZING"] == nil {
    package.targets += [
        // A photo diary, its classes generated from Schemas/Diary.
        .executableTarget(
            name: "DiaryApp",
            dependencies: ["Strata"],
            path: "Samples/DiaryApp/Sources/DiaryApp",
            exclude: ["Schemas"],
            plugins: ["StrataModelPlugin"]
        ),
        // A newcomer's contacts and notes flows, in typed code only.
        .executableTarget(
            name: "FirstHourApp",
            dependencies: ["Strata"],
            path: "Samples/FirstHourApp/Sources/FirstHourApp",
            exclude: ["Schemas"],
            plugins: ["StrataModelPlugin"]
        ),
    ]
}
