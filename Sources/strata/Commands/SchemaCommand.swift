/// `strata schema …`: work on schema files.
struct SchemaCommand: CommandGroup {
    static let name = "schema"
    static let abstract =
        "Check schema files, print their Core Data hashes, convert Xcode models."
    static let subcommands: [any Command.Type] = [
        SchemaCheckCommand.self, SchemaHashCommand.self, SchemaFromXcdatamodelCommand.self,
    ]
}
