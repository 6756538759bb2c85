/// The root: `strata <command>`.
struct StrataCommand: CommandGroup {
    static let name = "strata"
    static let abstract = "Move Core Data–style app data between formats and model versions."
    static let subcommands: [any Command.Type] = [
        SchemaCommand.self, CreateCommand.self, InfoCommand.self, CheckCommand.self,
        QueryCommand.self,
        MigrateCommand.self, ImportCommand.self, ExportCommand.self, ArchiveCommand.self,
        UnarchiveCommand.self, SeedCommand.self, ServeCommand.self, DemoCommand.self,
    ]

    static var usage: String {
        var lines = [
            "OVERVIEW: \(abstract)", "",
            "USAGE: strata <command> [options]", "",
            "COMMANDS:", subcommandList,
        ]
        lines += [
            "",
            "See 'strata <command> --help' for details. Exit status: 0 success, 1 failure, 64 bad usage.",
        ]
        return lines.joined(separator: "\n")
    }
}
