import Foundation

/// The shell commands of a Markdown document, as the README test runs them.
///
/// How a document author controls this:
/// - Every fenced block whose info string is `sh` (or `bash`, `shell`) is
///   run, command by command, in document order, in one fresh folder.
/// - A command is a line, with the lines after it when it ends in `\`.
///   Blank lines and lines starting with `#` are not commands; a trailing
///   `# comment` is the shell's.
/// - To show commands that must not run, put them in a ```` ```console ````
///   (or `text`) block, end the command with `# not run`, or make
///   `# not run` the first line of the block to skip all of it.
/// - `make` commands are not run (they build and test the whole package);
///   each target they name must exist in the Makefile.
struct DocumentCommand: Hashable, Sendable, CustomStringConvertible {
    /// The command as written, continuation lines included.
    var text: String
    /// Its first line's number in the document (from 1).
    var line: Int
    /// Whether the author marked it not to run.
    var isSkipped: Bool

    var description: String { "line \(line): \(text)" }

    /// The first word, the program (`strata`, `make`…).
    var program: String {
        String(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? "")
    }

    static let runnableLanguages: Set<String> = ["sh", "bash", "shell"]
    static let skipMarker = "# not run"

    /// The commands of every runnable block of `markdown`.
    static func extract(from markdown: String) -> [DocumentCommand] {
        var commands: [DocumentCommand] = []
        var inBlock = false
        var runnable = false
        var blockSkipped = false
        var firstLineOfBlock = false
        var pending: (text: String, line: Int)?
        let lines = markdown.components(separatedBy: "\n")
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                if inBlock {
                    if let open = pending {
                        commands.append(
                            DocumentCommand(
                                text: open.text, line: open.line,
                                isSkipped: blockSkipped || open.text.contains(skipMarker)))
                        pending = nil
                    }
                    inBlock = false
                } else {
                    inBlock = true
                    let language = line.dropFirst(3).split(separator: " ").first.map(String.init)
                    runnable = runnableLanguages.contains(language ?? "")
                    blockSkipped = false
                    firstLineOfBlock = true
                }
                continue
            }
            guard inBlock, runnable else { continue }
            if var open = pending {
                open.text += "\n" + rawLine
                pending = open
            } else {
                if line.isEmpty { continue }
                if line.hasPrefix("#") {
                    if firstLineOfBlock && line == skipMarker { blockSkipped = true }
                    firstLineOfBlock = false
                    continue
                }
                pending = (rawLine, index + 1)
            }
            firstLineOfBlock = false
            if let open = pending, !line.hasSuffix("\\") {
                commands.append(
                    DocumentCommand(
                        text: open.text, line: open.line,
                        isSkipped: blockSkipped || open.text.contains(skipMarker)))
                pending = nil
            }
        }
        return commands
    }

    /// The targets a `make` command names (its words that are neither
    /// options nor variable settings).
    var makeTargets: [String] {
        text.split(separator: " ").dropFirst().map(String.init)
            .prefix { $0 != "#" }
            .filter { !$0.hasPrefix("-") && !$0.contains("=") }
    }

    /// The targets a Makefile defines: the names before `:` on rule lines.
    static func makefileTargets(_ makefile: String) -> Set<String> {
        var targets: Set<String> = []
        for line in makefile.components(separatedBy: "\n") {
            guard let first = line.first, first != "\t", first != "#", first != " ",
                let colon = line.firstIndex(of: ":")
            else { continue }
            let after = line[line.index(after: colon)...]
            if after.hasPrefix("=") { continue }  // `:=` assigns.
            let before = line[..<colon]
            if before.contains("=") || before.contains("$") { continue }
            for word in before.split(separator: " ") where !word.hasPrefix(".") {
                targets.insert(String(word))
            }
        }
        return targets
    }
}
