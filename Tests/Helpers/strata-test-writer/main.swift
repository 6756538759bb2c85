import Foundation
import Strata

// A second process for tests that need one:
//
//     strata-test-writer STORE SCHEMA_DIR ENTITY PK KEY VALUE
//
// sets one string attribute of one object through a Context and saves,
// printing the row's new Z_OPT (the context conflict tests);
//
//     strata-test-writer migrate STORE SCHEMA_DIR
//
// migrates the store to the newest version, lossy steps accepted, with a
// custom step between versions 2 and 3 that sets `Note.summary` from the
// title, printing one line per progress report (the crash tests kill it).

func write(_ arguments: [String]) throws -> Int64 {
    guard arguments.count == 6, let key = Int64(arguments[3]) else {
        throw HelperError(message: "usage: strata-test-writer STORE SCHEMA_DIR ENTITY PK KEY VALUE")
    }
    let store = try Store.open(at: URL(fileURLWithPath: arguments[0]))
    let model = try SchemaChain.load(directory: URL(fileURLWithPath: arguments[1])).newest
    let context = try Context(store: store, model: model)
    let uri = "x-coredata://\(store.metadata.uuid)/\(arguments[2])/p\(key)"
    guard let id = ObjectID(uri: uri, storeUUID: store.metadata.uuid) else {
        throw HelperError(message: "not an object id: \(uri)")
    }
    try context.object(with: id).set(arguments[4], arguments[5])
    try context.save()
    guard
        let table = try StoreMapping(model: model, store: store).entity(named: arguments[2])?.table,
        let version = try store.connection.scalar(
            "SELECT Z_OPT FROM \(SQLiteIdentifier.quoted(table)) WHERE Z_PK = ?", [.integer(key)])?
            .int64Value
    else {
        throw HelperError(message: "the row is gone after the save")
    }
    return version
}

struct HelperError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Fills `Note.summary` from the title.
struct SummaryStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {
        try work.forEachSourceObject(of: "Note") { note, destination in
            try destination?.set("summary", "About \(try note.string("title") ?? "")")
        }
    }
}

func migrate(_ arguments: [String]) throws {
    guard arguments.count == 2 else {
        throw HelperError(message: "usage: strata-test-writer migrate STORE SCHEMA_DIR")
    }
    var options = MigrationOptions()
    options.acceptsLossySteps = true
    options.customSteps[2] = SummaryStep()
    options.batchSize = 5000
    let migrator = try Migrator(
        storeAt: URL(fileURLWithPath: arguments[0]),
        schemas: URL(fileURLWithPath: arguments[1]), options: options)
    try migrator.run { progress in
        FileHandle.standardOutput.write(
            Data("\(progress.stageName) \(progress.activity) \(progress.rowsDone)\n".utf8))
    }
    FileHandle.standardOutput.write(Data("finished\n".utf8))
}

do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "migrate" {
        try migrate(Array(arguments.dropFirst()))
    } else {
        print(try write(arguments))
    }
} catch {
    FileHandle.standardError.write(Data("strata-test-writer: \(error)\n".utf8))
    exit(1)
}
