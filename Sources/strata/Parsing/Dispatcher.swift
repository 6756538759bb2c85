/// Finds the command a command line names, handles `--help`, parses,
/// validates and runs it.
enum Dispatcher {
    /// Runs the command line `words` (without the program name) against the
    /// tree rooted at `root` and returns the exit code.
    static func run(_ words: [String], root: any Command.Type) -> ExitCode {
        var command: any Command.Type = root
        var arguments = ArgumentList(words, command: root)
        while !command.subcommands.isEmpty {
            guard let name = arguments.popSubcommandName() else { break }
            guard let next = command.subcommands.first(where: { $0.name == name }) else {
                return exit(withError: UsageError("unknown command '\(name)'", command: command))
            }
            command = next
            arguments = ArgumentList(arguments.remainingWords, command: next)
        }
        // A group called with nothing after it shows what it offers.
        if arguments.wantsHelp || (!command.subcommands.isEmpty && arguments.isEmpty) {
            Terminal.output(command.usage)
            return .success
        }
        do {
            let parsed = try command.parse(&arguments)
            try parsed.validate()
            try parsed.run()
            return .success
        } catch {
            return exit(withError: error, command: command)
        }
    }
}
