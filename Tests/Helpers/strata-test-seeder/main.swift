import Foundation
import Strata

// A process that opens a first-run store, for the seeding tests:
//
//     strata-test-seeder STORE MODEL_DIR SEED [KILL_AT_STEP]
//
// opens STORE with a StoreContainer, seeding it from SEED when missing, and
// prints one line: the outcome, the number of seeding steps it went through,
// the store's UUID and its object count per entity. With KILL_AT_STEP it
// sends itself SIGKILL right after that seeding step (the crash tests).

struct HelperError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func open(_ arguments: [String]) throws -> String {
    guard arguments.count == 3 || arguments.count == 4 else {
        throw HelperError(message: "usage: strata-test-seeder STORE MODEL_DIR SEED [KILL_AT_STEP]")
    }
    let schemas = URL(fileURLWithPath: arguments[1], isDirectory: true)
    let killAt = arguments.count == 4 ? Int(arguments[3]) : nil
    var steps = 0
    var options = SeedingOptions()
    options.afterStep = { step in
        steps = step.number
        if step.number == killAt { kill(getpid(), SIGKILL) }
    }
    let model = try SchemaChain.load(directory: schemas).name
    let container = try StoreContainer(
        model: model, schemas: schemas,
        seed: try Seed.detecting(URL(fileURLWithPath: arguments[2])),
        location: .file(URL(fileURLWithPath: arguments[0])), options: options)
    let counts = container.context.model.entities.map { entity in
        let count = (try? container.context.count(FetchRequest(entity: entity.name))) ?? -1
        return "\(entity.name)=\(count)"
    }
    return
        "\(container.seeding.outcome.rawValue) steps=\(steps) uuid=\(container.store.metadata.uuid) "
        + counts.sorted().joined(separator: " ")
}

do {
    print(try open(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("strata-test-seeder: \(error)\n".utf8))
    exit(1)
}
