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
            // A symbolic link to the repository's Schemas/Diary (SwiftPM
            // resources must lie inside the target): the app follows the
            // model's newest version without a second copy to keep in step.
            resources: [.copy("Schemas/Diary")],
            plugins: [.plugin(name: "StrataModelPlugin", package: "Strata")]
        )
    ]
)
