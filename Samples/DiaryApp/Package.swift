// swift-tools-version:6.0
import PackageDescription

// A photo diary in typed code: the classes of Schemas/Diary are generated at
// build time by Strata's StrataModelPlugin. Strata comes by path, so the app
// builds offline from a clone of the repository.
let package = Package(
    name: "DiaryApp",
    dependencies: [
        .package(name: "Strata", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "DiaryApp",
            dependencies: [.product(name: "Strata", package: "Strata")],
            // Schemas/Diary is a symbolic link to the repository's
            // Schemas/Diary, so the classes follow the model's newest version
            // with no second copy to keep in step. The plugin reads it; the
            // app needs no schema files at run time (the generated
            // DiaryModel carries its version's schema), so it is excluded
            // rather than a resource (SwiftPM would copy the link itself).
            exclude: ["Schemas"],
            plugins: [.plugin(name: "StrataModelPlugin", package: "Strata")]
        )
    ]
)
