/// `strata schema …`: work on schema files.
struct SchemaCommand: CommandGroup {
    static let name = "schema"
    static let abstract =
        "Check schema files, diff versions, print their Core Data hashes, convert Xcode models "
        + "and mapping models, "
        + "draw diagrams, write Swift classes."
    static let subcommands: [any Command.Type] = [
        SchemaCheckCommand.self, SchemaDiffCommand.self, SchemaHashCommand.self,
        SchemaFromXcdatamodelCommand.self, SchemaFromXcmappingmodelCommand.self,
        SchemaDiagramCommand.self, SchemaSwiftCommand.self,
    ]
}
