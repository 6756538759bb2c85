import Foundation
import Strata

/// The exit codes of `strata`: 0 success, 1 failure, 64 bad usage (`EX_USAGE`).
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
}

/// Reports `error` on stderr and returns the exit code it maps to. Every
/// error leaves the command through here.
func exit(withError error: Error, command: (any Command.Type)? = nil) -> ExitCode {
    switch error {
    case let usage as UsageError:
        Terminal.error("error: \(usage.message)\n\n\(usage.usage)")
        return .usage
    case let schema as SchemaError where schema.issues.count > 1:
        Terminal.error("error: \(schema.issues.count) problems in the schema:\n\(schema)")
        return .failure
    default:
        var message = "\(error)"
        if let command, command.forceReplacesOutput,
            Exit.isAlreadyExists(error), !message.contains("--force")
        {
            message += "; give --force to replace it"
        }
        Terminal.error("error: \(message)")
        return .failure
    }
}

/// What the error exit knows of the commands.
enum Exit {
    /// Whether `error` refuses to replace a file that exists.
    static func isAlreadyExists(_ error: Error) -> Bool {
        switch error {
        case let store as StoreError: store.code == .alreadyExists
        case let export as ExportError: export.code == .alreadyExists
        case let archive as ArchiveError: archive.code == .alreadyExists
        default: false
        }
    }
}

/// Writing to the two standard streams.
enum Terminal {
    /// Writes `text` and a newline to stdout.
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a newline to stderr, its control characters other
    /// than line breaks escaped: messages quote names and values from files
    /// and stores, which must not drive the terminal.
    static func error(_ text: String) {
        FileHandle.standardError.write(
            Data((TerminalText.escapedKeepingLines(text) + "\n").utf8))
    }
}
