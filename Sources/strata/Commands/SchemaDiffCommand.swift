import Foundation
import Strata

/// `strata schema diff A B` or `strata schema diff DIR --from N --to M`: the
/// typed migration plan between two versions, step by step, then its SQL.
///
/// The diff is informational: it exits 0 whenever a plan could be made,
/// whatever its labels (like `diff` output that is read, not acted on); 1
/// for unreadable or invalid schemas and unknown versions; 64 for bad usage.
/// `strata migrate` is where lossy and unmapped steps are refused.
struct SchemaDiffCommand: Command {
    static let name = "diff"
    static let abstract = "Show the typed migration plan between two schema versions."
    static let usage = """
        USAGE: strata schema diff <from> <to> [--json]
               strata schema diff <folder> --from <n> [--to <m>] [--json]

        ARGUMENTS:
          <from> <to>   Two schema files (a folder stands for its newest version).
          <folder>      A model folder; renames are followed through every version between.

        OPTIONS:
          --from <n>    The version the store is at.
          --to <m>      The version to move to (default: the newest).
          --json        Print the plan as JSON on stdout.

        Each step is labelled inferred (Core Data's lightweight rules), lossy (data is
        dropped) or needs-mapping (a mapping must supply what the schemas do not say).
        Exit status: 0 when a plan was made, whatever its labels; 1 for bad schemas.
        """

    var first: String
    var second: String?
    var from: Int?
    var to: Int?
    var json: Bool

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let json = arguments.flag("--json")
        let from = try arguments.integerOption("--from")
        let to = try arguments.integerOption("--to")
        let first = try arguments.positional("<from> schema or <folder>")
        let second = arguments.optionalPositional()
        try arguments.finish()
        return Self(first: first, second: second, from: from, to: to, json: json)
    }

    func validate() throws {
        if second != nil, from != nil || to != nil {
            throw UsageError(
                "give two schemas, or one folder with --from and --to, not both", command: Self.self
            )
        }
        if second == nil, from == nil {
            throw UsageError(
                "missing <to> schema (or --from <n> with a folder)", command: Self.self)
        }
    }

    func run() throws {
        let plan: MigrationPlan
        if let second {
            plan = MigrationPlan(
                from: try SchemaSource.loadModel(first, version: nil),
                to: try SchemaSource.loadModel(second, version: nil))
        } else {
            let chain = try SchemaSource.loadChain(first)
            plan = try MigrationPlan(
                chain: chain, from: from ?? 1, to: to ?? chain.newest.version)
        }
        if json {
            Terminal.output(try JSONOutput.encode(PlanReport(plan)))
        } else {
            Terminal.output(PlanText.render(plan))
        }
    }
}

/// The plan as text: a summary line, the steps, the tables, then the SQL.
private enum PlanText {
    static func render(_ plan: MigrationPlan) -> String {
        let (source, destination) = (plan.source, plan.destination)
        var lines = [
            "\(destination.name) version \(source.version) to \(destination.version): "
                + summary(plan)
        ]
        guard !plan.isEmpty else { return lines.joined(separator: "\n") }
        lines += ["", "STEPS"]
        lines.append(
            TextTable.render(
                plan.steps.enumerated().map { index, step in
                    ["\(index + 1)", step.label.text, step.kind.rawValue, step.names, step.reason]
                }, indent: "  "))
        if !plan.tableChanges.isEmpty {
            lines += ["", "TABLES"]
            lines.append(
                TextTable.render(
                    plan.tableChanges.map { change in
                        let steps = change.steps.map { String($0 + 1) }.joined(separator: ", ")
                        return [
                            change.table, change.strategy.rawValue,
                            (steps.isEmpty ? "" : "steps \(steps)")
                                + (change.isFused ? " (fused: one rebuild)" : ""),
                        ]
                    }, indent: "  "))
        }
        let statements = plan.statements
        if !statements.isEmpty {
            lines += ["", "SQL"]
            for statement in statements {
                let bound = statement.arguments.map(describe).joined(separator: ", ")
                lines.append(statement.sql + ";" + (bound.isEmpty ? "" : "  -- ? = \(bound)"))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func summary(_ plan: MigrationPlan) -> String {
        guard !plan.isEmpty else { return "no changes" }
        let counts = MigrationLabel.allCases.compactMap { label -> String? in
            let count = plan.steps.filter { $0.label == label }.count
            return count == 0 ? nil : "\(count) \(label.text)"
        }
        let noun = plan.steps.count == 1 ? "step" : "steps"
        return "\(plan.steps.count) \(noun) (\(counts.joined(separator: ", ")))"
    }

    private static func describe(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .string(let text): "'\(text.replacingOccurrences(of: "'", with: "''"))'"
        case .boolean(let flag): flag ? "1" : "0"
        case .date(let seconds): "\(seconds)"
        case .data(let bytes): "X'\(bytes.map { String(format: "%02X", $0) }.joined())'"
        case .uuid(let uuid): "'\(uuid.uuidString)'"
        }
    }
}

/// The JSON form of a plan.
private struct PlanReport: Encodable {
    struct Table: Encodable {
        var table: String
        var strategy: String
        var sources: [String]
        var steps: [Int]
        var fused: Bool
        var statements: [PlanStatementJSON]
    }

    var model: String
    var from: Int
    var to: Int
    var label: String
    var steps: [PlanStepJSON]
    var tables: [Table]
    var statements: [PlanStatementJSON]

    init(_ plan: MigrationPlan) {
        model = plan.destination.name
        from = plan.source.version
        to = plan.destination.version
        label = plan.label.text
        steps = plan.steps.enumerated().map { PlanStepJSON($1, index: $0) }
        tables = plan.tableChanges.map { change in
            Table(
                table: change.table, strategy: change.strategy.rawValue, sources: change.sources,
                steps: change.steps.map { $0 + 1 }, fused: change.isFused,
                statements: change.statements.map(PlanStatementJSON.init))
        }
        statements = plan.statements.map(PlanStatementJSON.init)
    }
}
