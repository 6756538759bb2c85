import Foundation
import Strata

/// `strata demo [DIR]`: the main job end to end on the bundled samples.
///
/// It creates a store for every model in `Schemas/` at its newest version,
/// imports the model's sample input into it (`Samples/<Model>/`) and prints
/// the store's info — except Recipes, whose store is seeded on a first start
/// from a seed store and found on the second — then builds a version-1 diary from
/// `Samples/Diary`, shows the migration plan, upgrades it to the newest
/// version and prints what changed; then archives that diary to a bundle,
/// restores it into a new store and shows that both hold the same.
struct DemoCommand: Command {
    static let name = "demo"
    static let abstract = "Run the main job end to end on the bundled samples."
    static let usage = """
        USAGE: strata demo [<dir>] [--schemas <dir>] [--samples <dir>]

        ARGUMENTS:
          <dir>              Where the demo writes its stores (default: demo). A folder
                             that exists must be empty or an earlier demo's.

        OPTIONS:
          --schemas <dir>    The folder of model folders (default: Schemas, here or
                             in the package strata was built in).
          --samples <dir>    The sample data folder (default: Samples, likewise).
        """

    /// The file that marks a folder as the demo's own, so a rerun may replace
    /// the stores in it and nothing else is ever touched.
    static let marker = ".strata-demo"

    var directory: String
    var schemas: String
    var samples: String

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let schemas = try arguments.option("--schemas")
        let samples = try arguments.option("--samples")
        let directory = arguments.optionalPositional() ?? "demo"
        try arguments.finish()
        let bundled = schemas == nil || samples == nil ? try bundledFolders() : nil
        return Self(
            directory: directory, schemas: schemas ?? bundled?.schemas ?? "Schemas",
            samples: samples ?? bundled?.samples ?? "Samples")
    }

    func run() throws {
        try Self.requireFolder(schemas, option: "--schemas")
        try Self.requireFolder(samples, option: "--samples")
        let fileManager = FileManager.default
        let models = try fileManager.contentsOfDirectory(atPath: schemas)
            .filter { name in
                var isDirectory: ObjCBool = false
                return !name.hasPrefix(".")
                    && fileManager.fileExists(
                        atPath: "\(schemas)/\(name)", isDirectory: &isDirectory)
                    && isDirectory.boolValue
            }
            .sorted()
        guard !models.isEmpty else {
            throw CommandFailure(message: "\(schemas): no model folders")
        }
        try prepareDirectory(
            replacing: models.map { "\($0).sqlite" } + DemoCommand.seedingFiles + [
                "Diary-v1-migrated.sqlite", "Diary.zip", "Diary-restored.sqlite",
            ])

        let report = DemoReport()
        for (index, name) in models.enumerated() {
            if name == "Recipes", FileManager.default.fileExists(atPath: recipesSeedSample) {
                if index > 0 { Terminal.output("") }
                try report.step(
                    "seed Recipes on a first start", path: "\(directory)/Recipes.sqlite"
                ) {
                    try runRecipesSeeding()
                }
                continue
            }
            let chain = try SchemaChain.load(directory: URL(fileURLWithPath: "\(schemas)/\(name)"))
            let path = "\(directory)/\(name).sqlite"
            try report.step("import the \(name) sample", path: path) {
                let store = try Store.create(at: URL(fileURLWithPath: path), model: chain.newest)
                try store.close()
                if index > 0 { Terminal.output("") }
                Terminal.output("== \(name): created \(path) at version \(chain.newest.version)")
                try importSample(of: name, into: path)
            }
            let reopened = try Store.open(at: URL(fileURLWithPath: path), mode: .readOnly)
            let info = try reopened.info(model: try reopened.matchingVersion(in: chain))
            try reopened.close()
            Terminal.output(InfoCommand.render(info))
        }
        if models.contains("Diary") {
            try report.step(
                "upgrade a version-1 diary", path: "\(directory)/Diary-v1-migrated.sqlite"
            ) {
                try runDiaryMigration()
            }
            try report.step("archive it, restore the bundle", path: "\(directory)/Diary.zip") {
                try runDiaryBundle()
            }
            try report.alsoWrote("  the restored store", path: "\(directory)/Diary-restored.sqlite")
        }
        Terminal.output("")
        Terminal.output(report.render())
    }

    /// Makes `directory` ready: created when missing; when it is an earlier
    /// demo's, the stores this run writes are removed first.
    private func prepareDirectory(replacing stores: [String]) throws {
        let fileManager = FileManager.default
        let marker = "\(directory)/\(DemoCommand.marker)"
        if fileManager.fileExists(atPath: directory) {
            let contents = try fileManager.contentsOfDirectory(atPath: directory)
            guard contents.isEmpty || fileManager.fileExists(atPath: marker) else {
                throw CommandFailure(
                    message:
                        "\(directory): folder exists and is not a Strata demo folder; choose another"
                )
            }
            for store in stores {
                for suffix in ["", "-wal", "-shm"]
                where fileManager.fileExists(atPath: "\(directory)/\(store)\(suffix)") {
                    try fileManager.removeItem(atPath: "\(directory)/\(store)\(suffix)")
                }
            }
        } else {
            try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data("Created by `strata demo`.\n".utf8).write(to: URL(fileURLWithPath: marker))
    }
}
