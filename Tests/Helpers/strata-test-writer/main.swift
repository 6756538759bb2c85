import Foundation
import Strata

// A second process for tests that need one:
//
//     strata-test-writer STORE SCHEMA_DIR ENTITY PK KEY VALUE
//
// sets one string attribute of one object through a Context and saves,
// printing the row's new Z_OPT (the context conflict tests);

func write(_ arguments: [String]) throws -> Int64 {
    guard arguments.count == 6, let key = Int64(arguments[3]) else {
        throw HelperError(message: "usage: strata-test-writer STORE SCHEMA_DIR ENTITY PK KEY VALUE")
    }
    let store = try Store.open(at: URL(fileURLWithPath: arguments[0]))
    let model = try store.matchingVersion(
        in: SchemaChain.load(directory: URL(fileURLWithPath: arguments[1])))
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

do {
    print(try write(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("strata-test-writer: \(error)\n".utf8))
    exit(1)
}
