import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Fills `Note.summary` with the batch API: the same values as
/// ``SummaryStep``, without objects.
struct BatchSummaryStep: CustomMigrationStep {
    func migrate(_ work: CustomStepWork) throws {
        try work.update("Note", set: "summary", reading: ["title"]) { row in
            .string("About \(try row.string("title") ?? "")")
        }
    }
}

/// `CustomStepWork.update`: a custom step's batch form writes what the
/// object form writes (values, `Z_OPT`, progress), reads only matching
/// objects under a predicate, and refuses unknown names, values of the
/// wrong type and values that break the attribute's rules, failing the
/// stage.
struct CustomStepWorkUpdateTests {
    /// Every note row of the store at `url`: key, `Z_OPT`, title, summary.
    private func noteRows(_ url: URL) throws -> [[String]] {
        let store = try Store.open(at: url, mode: .readOnly)
        defer { try? store.close() }
        let statement = try store.connection.prepare(
            "SELECT Z_PK, Z_OPT, ZTITLE, ZSUMMARY FROM ZNOTE ORDER BY Z_PK")
        var rows: [[String]] = []
        while try statement.step() {
            rows.append([
                String(statement.int64(at: 0)), String(statement.int64(at: 1)),
                statement.text(at: 2) ?? "nil", statement.text(at: 3) ?? "nil",
            ])
        }
        return rows
    }

    /// Migrates a fresh five-note v1 store to v3 with `step` at stage 2-3;
    /// the store's URL, and the progress the custom step reported.
    private func migrate(
        with step: some CustomMigrationStep, batchSize: Int = 2
    ) throws -> (TemporaryDirectory, URL, [Int64]) {
        let (directory, setup, url) = try MigratorTestChain.populated()
        var options = MigrationOptions()
        options.acceptsLossySteps = true
        options.customSteps[2] = step
        options.batchSize = batchSize
        var reports: [MigrationProgress] = []
        _ = try Migrator(storeAt: url, schemas: setup.folder, options: options)
            .run { reports.append($0) }
        let custom = reports.filter { $0.activity == "custom step: Note" }.map(\.rowsDone)
        return (directory, url, custom)
    }

    @Test func theBatchFormWritesWhatTheObjectFormWrites() throws {
        let (objectFolder, objectStore, objectProgress) = try migrate(with: SummaryStep())
        let (batchFolder, batchStore, batchProgress) = try migrate(with: BatchSummaryStep())
        defer { withExtendedLifetime((objectFolder, batchFolder)) {} }
        let rows = try noteRows(batchStore)
        #expect(rows.count == 5)
        #expect(rows.first == ["1", "2", "Note 1", "About Note 1"])
        #expect(rows == (try noteRows(objectStore)))
        #expect(batchProgress == [2, 4, 5])
        #expect(batchProgress == objectProgress)
        let store = try Store.open(at: batchStore, mode: .readOnly)
        defer { try? store.close() }
        #expect(try store.connection.integrityCheck() == ["ok"])
    }

    /// Sets every summary, then overrides those of notes matching a
    /// predicate.
    private struct OverridingStep: CustomMigrationStep {
        func migrate(_ work: CustomStepWork) throws {
            try BatchSummaryStep().migrate(work)
            try work.update(
                "Note", set: "summary", reading: ["title", "pinned"],
                where: try FetchPredicate("title ENDSWITH %@", "4")
            ) { row in
                .string("Pinned: \(try row.value("pinned").map { "\($0)" } ?? "nil")")
            }
        }
    }

    @Test func aPredicateLimitsTheObjectsUpdated() throws {
        let (directory, url, _) = try migrate(with: OverridingStep())
        defer { withExtendedLifetime(directory) {} }
        let summaries = try noteRows(url).map { $0[3] }
        #expect(
            summaries == [
                "About Note 1", "About Note 2", "About Note 3", "Pinned: boolean(false)",
                "About Note 5",
            ])
    }

    /// A step that updates with `value` for every note.
    private struct ValueStep: CustomMigrationStep {
        var reading = ["title"]
        var value: @Sendable (SourceRow) throws -> AttributeValue?
        func migrate(_ work: CustomStepWork) throws {
            try work.update("Note", set: "summary", reading: reading, value)
        }
    }

    /// The error migrating with `step` throws.
    private func failure(_ step: some CustomMigrationStep) -> (any Error)? {
        do {
            _ = try migrate(with: step)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownNamesWrongTypesAndBrokenRulesFailTheStage() throws {
        let unknown = failure(ValueStep(reading: ["titel"]) { _ in .string("x") })
        #expect((unknown as? ContextError)?.code == .unknownProperty)
        #expect((unknown as? ContextError)?.message.contains("'titel'") == true)

        let unread = failure(ValueStep { row in .string(try row.string("text") ?? "") })
        #expect((unread as? ContextError)?.message.contains("add 'text' to its reading") == true)

        let wrongType = failure(ValueStep { _ in .integer(3) })
        #expect((wrongType as? ContextError)?.code == .wrongType)
        #expect((wrongType as? ContextError)?.message.contains("Note.summary is string") == true)

        let missing = failure(ValueStep { _ in nil })
        let validation = try #require(missing as? ValidationError)
        #expect(validation.failures.map(\.rule) == ["required"])
        #expect(validation.failures.first?.property == "summary")
    }
}
