import Foundation
import Strata

/// Dry-run plans and migration results as text.
enum MigrationText {
    /// The plan: a summary, each stage's steps with their rows and how they
    /// are resolved, then the preflight's findings.
    static func render(_ preview: MigrationPreview) -> String {
        var lines: [String] = []
        if preview.isUpToDate {
            return "\(preview.storePath) is at version \(preview.currentVersion), the target; "
                + "nothing to do"
        }
        let stageWord = preview.stages.count == 1 ? "stage" : "stages"
        lines.append(
            "\(preview.storePath): version \(preview.currentVersion) to "
                + "\(preview.targetVersion) in \(preview.stages.count) \(stageWord)")
        lines += preview.versionNotes.map { "Note: \($0)" }
        if let journal = preview.journal, !journal.completedStages.isEmpty {
            lines.append(
                "An interrupted run (from version \(journal.startVersion)) finished stages "
                    + journal.completedStages.joined(separator: ", ") + "; a run goes on from here."
            )
        }
        for stagePreview in preview.stages {
            let stage = stagePreview.stage
            var how = stage.mode.rawValue
            if let mapping = stage.mapping { how += ", mapping \(mapping.origin)" }
            if stage.customStep != nil { how += ", custom step" }
            lines += ["", "STAGE \(stage.name) (\(how))"]
            if stagePreview.steps.isEmpty {
                lines.append("  no changes to the tables; new metadata only")
                continue
            }
            lines.append(
                TextTable.render(
                    [["#", "LABEL", "KIND", "WHAT", "ROWS", "RESOLVED", "WHY"]]
                        + stagePreview.steps.enumerated().map { index, step in
                            [
                                "\(index + 1)", step.step.label.text, step.step.kind.rawValue,
                                step.step.names, step.rows.map(String.init) ?? "-",
                                step.resolution.rawValue, why(step, in: stage),
                            ]
                        }, indent: "  "))
        }
        lines += ["", "PREFLIGHT"]
        if preview.findings.isEmpty {
            lines.append("  nothing in the data stops the migration")
        } else {
            lines += preview.findings.map {
                "  \($0.severity.rawValue) [\($0.stage)]: \($0.message)"
            }
        }
        if preview.rehearsed {
            lines.append(
                "  rehearsed on a private copy: every stage ran and passed its checks")
        }
        lines += ["", "Dry run: nothing was changed."]
        return lines.joined(separator: "\n")
    }

    /// A step's reason, told as the stage resolves it: a lossy step a
    /// mapping reads from does not drop its values, one it discards does.
    static func why(_ step: MigrationPreview.StepPreview, in stage: MigrationStage) -> String {
        guard step.resolution == .mapping, let mapping = stage.mapping else {
            return step.step.reason
        }
        guard step.step.label == .lossy else {
            return step.step.reason + "; \(mapping.origin) supplies it"
        }
        let entity = step.step.formerEntity ?? step.step.entity
        let entry = step.step.property.map { "\(entity).\($0)" } ?? entity
        if let file = mapping as? MigrationMapping,
            file.discarded.contains(entry) || file.discarded.contains(entity)
        {
            return step.step.reason + "; discarded by \(mapping.origin)"
        }
        return "gone from the new version; \(mapping.origin) reads its values and carries them on"
    }

    /// What a run did, with objects per entity before and after.
    static func render(_ report: MigrationReport) -> String {
        guard !report.completedStages.isEmpty else {
            return "Up to date: version \(report.finalVersion)."
        }
        var lines = [
            "Migrated from version \(report.startVersion) to \(report.finalVersion) "
                + "(stages \(report.completedStages.joined(separator: ", ")))."
        ]
        lines += report.versionNotes.map { "Note: \($0)" }
        if !report.accepted.isEmpty {
            lines.append("Accepted, as asked (\(report.accepted.count)):")
            lines += report.accepted.map { "  [\($0.stage)] \($0.message)" }
        }
        if !report.resumedAfter.isEmpty {
            lines.append(
                "Resumed after stages \(report.resumedAfter.joined(separator: ", ")) of an "
                    + "interrupted run.")
        }
        lines.append(backupLine(report.backup))
        let names = Set(report.rowsBefore.keys).union(report.rowsAfter.keys).sorted()
        let rows: [[String]] = names.map { name in
            let before = report.rowsBefore[name].map { String($0) } ?? "-"
            let after: String
            if let count = report.rowsAfter[name] {
                after = String(count)
            } else if let destinations = report.movedObjects[name] {
                after = "- (moved to \(destinations.joined(separator: ", ")))"
            } else {
                after = "-"
            }
            return [name, before, after]
        }
        lines.append(TextTable.render([["ENTITY", "BEFORE", "AFTER"]] + rows, indent: "  "))
        return lines.joined(separator: "\n")
    }

    /// What the run did about a backup.
    static func backupLine(_ backup: MigrationReport.Backup) -> String {
        switch backup {
        case .made(let name, let stage):
            "Backup \(name) kept from stage \(stage) on, removed at the end."
        case .resumed(let name): "Backup \(name) of the interrupted run removed at the end."
        case .notNeeded:
            "No backup needed: each stage commits or rolls back whole, and none before "
                + "the last can lose anything."
        case .off: "No backup kept (--no-backup)."
        }
    }
}

/// The dry run as JSON.
struct MigrationPreviewJSON: Encodable {
    struct Stage: Encodable {
        var name: String
        var from: Int
        var to: Int
        var mode: String
        var mapping: String?
        var steps: [PlanStepJSON]
        var statements: [PlanStatementJSON]
    }
    struct Finding: Encodable {
        var severity: String
        var stage: String
        var step: String?
        var message: String
    }
    var store: String
    var currentVersion: Int
    var targetVersion: Int
    var rows: [String: Int64]
    var stages: [Stage]
    var findings: [Finding]
    var versionNotes: [String]
    var canRun: Bool

    init(_ preview: MigrationPreview) {
        store = preview.storePath
        currentVersion = preview.currentVersion
        targetVersion = preview.targetVersion
        rows = preview.rowCounts
        stages = preview.stages.map { stage in
            Stage(
                name: stage.stage.name, from: stage.stage.from, to: stage.stage.to,
                mode: stage.stage.mode.rawValue, mapping: stage.stage.mapping?.origin,
                steps: stage.steps.enumerated().map { index, step in
                    PlanStepJSON(
                        step.step, index: index, rows: step.rows,
                        resolution: step.resolution.rawValue)
                },
                statements: stage.stage.plan.statements.map(PlanStatementJSON.init))
        }
        findings = preview.findings.map {
            Finding(
                severity: $0.severity.rawValue, stage: $0.stage, step: $0.step,
                message: $0.message)
        }
        versionNotes = preview.versionNotes
        canRun = preview.blockingFindings.isEmpty
    }
}

/// A finished run as JSON.
struct MigrationReportJSON: Encodable {
    var startVersion: Int
    var finalVersion: Int
    var completedStages: [String]
    var resumedAfter: [String]
    var rowsBefore: [String: Int64]
    var rowsAfter: [String: Int64]
    var movedObjects: [String: [String]]
    var accepted: [String]
    var versionNotes: [String]
    /// `made`, `resumed`, `not-needed` or `off`, and the backup's name.
    var backup: [String: String]

    init(_ report: MigrationReport) {
        startVersion = report.startVersion
        finalVersion = report.finalVersion
        completedStages = report.completedStages
        resumedAfter = report.resumedAfter
        rowsBefore = report.rowsBefore
        rowsAfter = report.rowsAfter
        movedObjects = report.movedObjects
        accepted = report.accepted.map(\.message)
        versionNotes = report.versionNotes
        switch report.backup {
        case .made(let name, let stage):
            backup = ["outcome": "made", "name": name, "beforeStage": stage]
        case .resumed(let name): backup = ["outcome": "resumed", "name": name]
        case .notNeeded: backup = ["outcome": "not-needed"]
        case .off: backup = ["outcome": "off"]
        }
    }
}
