// swift-tools-version:6.0
import PackageDescription

// A newcomer's first hour with Strata, in typed code: a contacts app (add,
// edit, delete, list by surname, a 1,000-line txt import, a re-import by a
// unique key, malformed lines, another writer's conflict) and a notes app in
// MagicalRecord style (a one-line stack seeded from JSON, newest first, a
// diacritic-insensitive search). The classes of Schemas/People and
// Schemas/Notes are generated at build time by Strata's StrataModelPlugin;
// Strata comes by path, so the app builds offline from a clone. `make test`
// builds the same sources as a target of Strata's own package.
let package = Package(
    name: "FirstHourApp",
    dependencies: [
        .package(name: "Strata", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "FirstHourApp",
            dependencies: [.product(name: "Strata", package: "Strata")],
            exclude: ["Schemas"],
            plugins: [.plugin(name: "StrataModelPlugin", package: "Strata")]
        )
    ]
)
