import Strata

/// Sets every note's new required `summary` from its title, touching each
/// object of the store once (``CustomStepWork`` saves and resets the
/// destination every ``MigrationOptions/batchSize`` objects).
struct TitleSummaryStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {
        try work.forEachSourceObject(of: "Note") { note, destination in
            let title = try note.string("title") ?? ""
            try destination?.set("summary", "About " + title)
        }
    }
}

/// ``TitleSummaryStep`` with the batch API: reads only the titles, through
/// one statement, and writes each summary with one prepared `UPDATE`.
struct TitleSummaryBatchStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {
        try work.update("Note", set: "summary", reading: ["title"]) { row in
            .string("About " + (try row.string("title") ?? ""))
        }
    }
}
