/// `strata schema …`: work on schema files.
struct SchemaCommand: CommandGroup {
    static let name = "schema"
    static let abstract = "Check schema files and print their Core Data hashes."
    static let subcommands: [any Command.Type] = [SchemaCheckCommand.self, SchemaHashCommand.self]
}
