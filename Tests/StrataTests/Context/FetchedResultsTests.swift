import Foundation
import Testing

import struct StrataContext.SortDescriptor

@testable import Strata
@testable import StrataContext
@testable import StrataQuery

/// Sectioned results and the changes they report after saves: notes
/// sectioned by keyword, sorted by keyword then title.
struct FetchedResultsTests {
    /// Collects what `onChange` hands over.
    private final class Recorder {
        var reports: [FetchedResultsChanges] = []
    }

    /// Notes in three sections: garden (Apples, Beans, Carrots), house
    /// (Door, Roof), work (Report).
    private func notes() throws -> ContextFixture {
        let fixture = try ContextFixture("Notes")
        let titles = [
            ("Carrots", "garden"), ("Door", "house"), ("Apples", "garden"), ("Report", "work"),
            ("Roof", "house"), ("Beans", "garden"),
        ]
        for (title, keyword) in titles {
            try add(title, keyword, to: fixture.context)
        }
        try fixture.context.save()
        return fixture
    }

    @discardableResult
    private func add(_ title: String, _ keyword: String?, to context: Context) throws
        -> ManagedObject
    {
        let note = try context.insert("Note")
        try note.set("title", title)
        try note.set("keywords", keyword)
        return note
    }

    /// Results by keyword, recording reports; optionally filtered.
    private func results(
        _ fixture: ContextFixture, predicate: Strata.FetchPredicate? = nil,
        tracking: FetchedResults.Tracking = .saves
    ) throws -> (FetchedResults, Recorder) {
        var request = FetchRequest(entity: "Note", predicate: predicate)
        request.sortDescriptors = [SortDescriptor("keywords"), SortDescriptor("title")]
        let results = try FetchedResults(
            context: fixture.context, request: request, sectionKeyPath: "keywords",
            tracking: tracking)
        let recorder = Recorder()
        results.onChange = { recorder.reports.append($0) }
        try results.performFetch()
        return (results, recorder)
    }

    private func note(_ title: String, in fixture: ContextFixture) throws -> ManagedObject {
        let found = try fixture.context.fetch(
            FetchRequest(
                entity: "Note",
                predicate: FetchPredicate("title == %@", arguments: [.string(title)])))
        return try #require(found.first)
    }

    private func titles(_ results: FetchedResults) throws -> [[String]] {
        try results.sections.map { try $0.objects.map { try $0.string("title") ?? "-" } }
    }

    private func path(_ section: Int, _ item: Int) -> ResultIndexPath {
        ResultIndexPath(section: section, item: item)
    }

    // MARK: - Sections

    @Test func testSectionsByKeyword() throws {
        let fixture = try notes()
        let (results, _) = try results(fixture)
        #expect(results.sections.map(\.name) == ["garden", "house", "work"])
        #expect(results.sections.map(\.numberOfObjects) == [3, 2, 1])
        #expect(
            try titles(results) == [["Apples", "Beans", "Carrots"], ["Door", "Roof"], ["Report"]])
        #expect(
            try results.fetchedObjects.map { try $0.string("title") } == [
                "Apples", "Beans", "Carrots", "Door", "Roof", "Report",
            ])
        let found = results.object(at: path(1, 1))
        let roof = try #require(found)
        #expect(try roof.string("title") == "Roof")
        #expect(results.indexPath(for: roof) == path(1, 1))
        #expect(results.object(at: path(3, 0)) == nil)
        #expect(results.object(at: path(2, 1)) == nil)
        #expect(results.object(at: path(-1, 0)) == nil)
    }

    @Test func testWithoutASectionKeyThereIsOneUnnamedSection() throws {
        let fixture = try notes()
        var request = FetchRequest(entity: "Note")
        request.sortDescriptors = [SortDescriptor("title", ascending: false)]
        let results = try FetchedResults(context: fixture.context, request: request)
        let recorder = Recorder()
        results.onChange = { recorder.reports.append($0) }
        try results.performFetch()
        #expect(results.sections.map(\.name) == [""])
        #expect(
            try titles(results) == [["Roof", "Report", "Door", "Carrots", "Beans", "Apples"]])

        try add("Quince", "garden", to: fixture.context)
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [.insert(path(0, 2))]
        #expect(recorder.reports == [expected])
    }

    @Test func testNotesWithoutAKeywordFormTheSectionNamedEmpty() throws {
        let fixture = try notes()
        try add("Loose", nil, to: fixture.context)
        try fixture.context.save()
        let (results, _) = try results(fixture)
        #expect(results.sections.map(\.name) == ["", "garden", "house", "work"])
    }

    @Test func testSectionKeyMustBeTheFirstSortKey() throws {
        let fixture = try notes()
        var request = FetchRequest(entity: "Note")
        request.sortDescriptors = [SortDescriptor("title"), SortDescriptor("keywords")]
        let error = #expect(throws: ContextError.self) {
            try FetchedResults(
                context: fixture.context, request: request, sectionKeyPath: "keywords")
        }
        #expect(error?.code == .invalidFetchRequest)
        #expect(error?.message.contains("sorted first by 'keywords'") == true)
        request.sortDescriptors = []
        #expect(throws: ContextError.self) {
            try FetchedResults(
                context: fixture.context, request: request, sectionKeyPath: "keywords")
        }
    }

    @Test func testSectionNamesOfEachKindOfValue() {
        #expect(FetchedResults.sectionName(for: nil) == "")
        #expect(FetchedResults.sectionName(for: .string("Garden")) == "Garden")
        #expect(FetchedResults.sectionName(for: .integer(-42)) == "-42")
        #expect(FetchedResults.sectionName(for: .real(2.5)) == "2.5")
        #expect(FetchedResults.sectionName(for: .real(3)) == "3.0")
        #expect(FetchedResults.sectionName(for: .boolean(true)) == "true")
        #expect(FetchedResults.sectionName(for: .date(86_400.5)) == "2001-01-02T00:00:00Z")
        #expect(FetchedResults.sectionName(for: .data(Data([1, 2, 3]))) == "AQID")
        let uuid = UUID()
        #expect(FetchedResults.sectionName(for: .uuid(uuid)) == uuid.uuidString)
    }

    // MARK: - Changes after a save

    @Test func testInsertIntoAnExistingSection() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        let basil = try add("Basil", "garden", to: fixture.context)
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [.insert(path(0, 1))]
        #expect(recorder.reports == [expected])
        #expect(try titles(results)[0] == ["Apples", "Basil", "Beans", "Carrots"])
        #expect(results.indexPath(for: basil) == path(0, 1))
    }

    @Test func testInsertThatCreatesASection() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try add("Boxes", "attic", to: fixture.context)
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.insertedSections = [0]
        expected.objects = [.insert(path(0, 0))]
        #expect(recorder.reports == [expected])
        #expect(results.sections.map(\.name) == ["attic", "garden", "house", "work"])
    }

    @Test func testDeleteThatEmptiesAndRemovesASection() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try fixture.context.delete(try note("Report", in: fixture))
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.deletedSections = [2]
        expected.objects = [.delete(path(2, 0))]
        #expect(recorder.reports == [expected])
        #expect(results.sections.map(\.name) == ["garden", "house"])
    }

    @Test func testSortKeyChangeIsAMoveWithinTheSection() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try note("Apples", in: fixture).set("title", "Dates")
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [.move(from: path(0, 0), to: path(0, 2))]
        #expect(recorder.reports == [expected])
        #expect(try titles(results)[0] == ["Beans", "Carrots", "Dates"])
    }

    @Test func testSectionKeyChangeIsAMoveAcrossSections() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try note("Door", in: fixture).set("keywords", "garden")
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [.move(from: path(1, 0), to: path(0, 3))]
        #expect(recorder.reports == [expected])
        #expect(
            try titles(results) == [["Apples", "Beans", "Carrots", "Door"], ["Roof"], ["Report"]])
    }

    @Test func testMoveOutOfAnEmptiedSectionIsADeleteAndAnInsert() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try note("Report", in: fixture).set("keywords", "house")
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.deletedSections = [2]
        expected.objects = [.delete(path(2, 0)), .insert(path(1, 1))]
        #expect(recorder.reports == [expected])
        withExtendedLifetime(results) {}
    }

    @Test func testChangeThatKeepsThePlaceIsAnUpdate() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try note("Beans", in: fixture).set("body", "Sow in May")
        // A new title that sorts to the same place is an update too.
        try note("Roof", in: fixture).set("title", "Roof tiles")
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [.update(path(0, 1)), .update(path(1, 1))]
        #expect(recorder.reports == [expected])
        withExtendedLifetime(results) {}
    }

    @Test func testObjectsLeavingAndEnteringThePredicate() throws {
        let fixture = try notes()
        let (results, recorder) = try results(
            fixture, predicate: FetchPredicate("NOT title BEGINSWITH 'Z'"))
        try note("Beans", in: fixture).set("title", "Zucchini")
        try fixture.context.save()
        var left = FetchedResultsChanges()
        left.objects = [.delete(path(0, 1))]
        #expect(recorder.reports == [left])

        try note("Zucchini", in: fixture).set("title", "Broad beans")
        try fixture.context.save()
        var entered = FetchedResultsChanges()
        entered.objects = [.insert(path(0, 1))]
        #expect(recorder.reports == [left, entered])
        #expect(try titles(results)[0] == ["Apples", "Broad beans", "Carrots"])
    }

    @Test func testSeveralChangesInOneSave() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture)
        try fixture.context.delete(try note("Apples", in: fixture))  // garden 0
        try add("Attic", "house", to: fixture.context)  // house, before Door
        try note("Carrots", in: fixture).set("keywords", "work")  // garden 2 → work
        try note("Report", in: fixture).set("body", "Q3")  // stays first in work
        try note("Roof", in: fixture).set("body", "Leaks")  // house 1 → 2, unmoved
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [
            .delete(path(0, 0)), .insert(path(1, 0)), .move(from: path(0, 2), to: path(2, 0)),
            .update(path(1, 1)), .update(path(2, 0)),
        ]
        #expect(recorder.reports == [expected])
        #expect(
            try titles(results) == [["Beans"], ["Attic", "Door", "Roof"], ["Carrots", "Report"]])
    }

    @Test func testSavesThatMissTheResultsReportNothing() throws {
        let fixture = try notes()
        let (results, recorder) = try results(
            fixture, predicate: FetchPredicate("keywords == 'garden'"))
        try note("Roof", in: fixture).set("body", "Leaks")
        try fixture.context.save()
        #expect(recorder.reports.isEmpty)
        try note("Apples", in: fixture).set("body", "Cox")
        try fixture.context.save()
        var expected = FetchedResultsChanges()
        expected.objects = [.update(path(0, 0))]
        #expect(recorder.reports == [expected])
        withExtendedLifetime(results) {}
    }

    @Test func testResultsStopObservingWhenReleased() throws {
        let fixture = try notes()
        do {
            let (results, _) = try results(fixture, tracking: .allChanges)
            #expect(fixture.context.observers.count == 2)
            withExtendedLifetime(results) {}
        }
        #expect(fixture.context.observers.isEmpty)
    }

    @Test func testTrackingAllChangesReportsUnsavedChangesOnce() throws {
        let fixture = try notes()
        let (results, recorder) = try results(fixture, tracking: .allChanges)
        try note("Beans", in: fixture).set("body", "Sow in May")
        try add("Basil", "garden", to: fixture.context)
        fixture.context.processPendingChanges()
        var expected = FetchedResultsChanges()
        expected.objects = [.insert(path(0, 1)), .update(path(0, 1))]
        #expect(recorder.reports == [expected])
        #expect(try titles(results)[0] == ["Apples", "Basil", "Beans", "Carrots"])

        // The save writes what was reported already: nothing new.
        try fixture.context.save()
        #expect(recorder.reports == [expected])
        let basil = try note("Basil", in: fixture)
        #expect(basil.objectID.isTemporary == false)
        #expect(results.indexPath(for: basil) == path(0, 1))
    }

    @Test func testIncreasingRunKeepsTheLongestOrderedSubsequence() {
        #expect(FetchedResultsChanges.increasingRun([]) == [])
        #expect(FetchedResultsChanges.increasingRun([0, 1, 2]) == [0, 1, 2])
        #expect(FetchedResultsChanges.increasingRun([1, 2, 0]) == [0, 1])
        #expect(FetchedResultsChanges.increasingRun([2, 0, 1]) == [1, 2])
        #expect(FetchedResultsChanges.increasingRun([3, 1, 2, 0, 4]).count == 3)
    }
}
