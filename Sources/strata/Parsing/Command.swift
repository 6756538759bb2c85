/// The shape every `strata` command has, after swift-argument-parser's
/// `ParsableCommand`: a name, a one-line abstract, a parser, a validation
/// step and a run step. A command with subcommands only dispatches.
protocol Command: Sendable {
    /// The word that selects the command on the command line.
    static var name: String { get }
    /// One line that says what the command does, shown in help.
    static var abstract: String { get }
    /// The usage lines and option list shown by `--help` and after usage errors.
    static var usage: String { get }
    /// The commands this one dispatches to; empty for a leaf command.
    static var subcommands: [any Command.Type] { get }
    /// Whether `--force` replaces an output that exists: the command's
    /// "already exists" errors then say so. False by default.
    static var forceReplacesOutput: Bool { get }

    /// Reads the command's arguments; throws ``UsageError`` on bad ones.
    static func parse(_ arguments: inout ArgumentList) throws -> Self
    /// Checks the parsed values against each other; throws ``UsageError``.
    func validate() throws
    /// Does the work, writing data to stdout and diagnostics to stderr.
    func run() throws
}

extension Command {
    static var subcommands: [any Command.Type] { [] }
    static var forceReplacesOutput: Bool { false }
    func validate() throws {}
}

/// A command that only groups subcommands (`strata schema …`).
protocol CommandGroup: Command {}

extension CommandGroup {
    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        throw UsageError("missing subcommand", command: Self.self)
    }
    func run() throws {}

    static var usage: String {
        var lines = ["USAGE: strata \(name) <subcommand>", "", "SUBCOMMANDS:", subcommandList]
        lines.append("")
        lines.append("See 'strata \(name) <subcommand> --help' for details.")
        return lines.joined(separator: "\n")
    }
}

extension Command {
    /// The subcommands, one per line: name, then abstract, in aligned columns.
    static var subcommandList: String {
        TextTable.render(subcommands.map { [$0.name, $0.abstract] }, indent: "  ")
    }
}
