import Foundation
import Strata

extension ImportCommand {
    /// `--format dayone`: imports a Day One JSON export zip into the
    /// store (created at the newest version when absent and --schemas is
    /// given); problems go to stderr, one line each, the summary to stdout.
    func importDayOne() throws {
        var dayOneOptions = DayOneImportOptions()
        dayOneOptions.errorPolicy = errorPolicy ?? .skip
        dayOneOptions.isDryRun = options.isDryRun
        dayOneOptions.jsonLimits = options.limits
        let inputURL = URL(fileURLWithPath: input)
        let summary = try withTargetStore { target, model in
            try DayOneImporter(store: target, model: model, options: dayOneOptions).run(inputURL)
        }
        for problem in summary.problems {
            Terminal.error("warning: \(input): \(problem)")
        }
        if json {
            Terminal.output(try JSONOutput.encode(summary))
            return
        }
        let verb = summary.isDryRun ? "Would import" : "Imported"
        var text =
            "\(verb) \(summary.imported) of \(summary.entries) Day One entries"
            + (summary.updated > 0 ? " (\(summary.updated) updated)" : "")
            + ", \(summary.media) media (\(summary.mediaBytes) bytes), \(summary.tags) tags "
            + "from \(input) into \(store)"
        if !summary.problems.isEmpty {
            text += "; \(summary.problems.count) problem(s) reported"
            if summary.skipped > 0 { text += ", \(summary.skipped) entries skipped" }
        }
        Terminal.output(text)
    }
}
