import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataFormats

/// The importer's flat path for txt blocks (values bound from the reader's
/// buffer), against what the general path of records writes.
struct ImporterBlockTests {
    /// Three diary entries: LF and CRLF endings, a repeated tag, an empty
    /// `Tags:` header, a block without tags, multi-line bodies.
    static let diary =
        "Date: 2024-05-01T08:30:00Z\nTitle: Walk\nTags: river, walk, river\nRain at first.\nThen sun.\n\n"
        + "Date: 2024-05-02T09:00:00Z\r\nTitle: Market\r\nTags:\r\nFigs.\r\nAnd bread.\r\n\r\n"
        + "Title: Quiet\nTags: walk\n\nTitle: Nothing to tag\nJust a line."

    /// A tree reader over a txt-blocks reader, which the importer cannot
    /// see through: it takes the general path.
    final class GeneralPathReader: TreeRecordReader {
        let inner: TextBlockReader
        init(_ inner: TextBlockReader) { self.inner = inner }
        var file: String { inner.file }
        var bytesRead: Int64 { inner.bytesRead }
        var totalBytes: Int64? { inner.totalBytes }
        func nextRecord() throws -> ImportRecord? { try inner.nextRecord() }
    }

    private func write(_ text: String, in fixture: ImportFixture) throws -> String {
        let url = fixture.folder.file("diary.txt")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func entries(_ fixture: ImportFixture) throws -> [[String]] {
        try fixture.rows(
            "SELECT ZTITLE, ZBODY, ZCREATIONTIME, ZWORDCOUNT FROM ZDIARYENTRY ORDER BY Z_PK")
    }

    private func links(_ fixture: ImportFixture) throws -> [[String]] {
        try fixture.rows(
            "SELECT e.ZTITLE, t.ZNAME FROM Z_1TAGS j JOIN ZDIARYENTRY e ON e.Z_PK = j.Z_1ENTRIES "
                + "JOIN ZTAG t ON t.Z_PK = j.Z_3TAGS ORDER BY e.Z_PK, t.ZNAME")
    }

    @Test func testFlatBlocksWriteRowsBodiesAndLinks() throws {
        let fixture = try ImportFixture("Diary")
        let path = try write(Self.diary, in: fixture)
        let summary = try fixture.run(
            try TextBlockReader(path: path), ImportOptions(entity: "DiaryEntry"))
        #expect(summary.insertedByEntity == ["DiaryEntry": 4, "Tag": 2])
        let rows = try entries(fixture)
        #expect(rows.map { $0[0] } == ["Walk", "Market", "Quiet", "Nothing to tag"])
        #expect(
            rows.map { $0[1] } == [
                "Rain at first.\nThen sun.", "Figs.\nAnd bread.", "NULL", "Just a line.",
            ])
        #expect(rows[0][2] == String(Int(ISO8601Date.seconds(from: "2024-05-01T08:30:00Z") ?? 0)))
        #expect(
            try links(fixture) == [["Walk", "river"], ["Walk", "walk"], ["Quiet", "walk"]])
        #expect(try fixture.store.connection.integrityCheck() == ["ok"])
    }

    @Test func testJoinRowsWrittenManyAtATimeAreAllThere() throws {
        // 101 entries of 3 tags, one repeated: 303 link rows asked, 202
        // distinct — several full batches and a remainder.
        let fixture = try ImportFixture("Diary")
        let text = (0..<101).map { "Title: E\($0)\nTags: t\($0 % 7), u\($0 % 5), t\($0 % 7)\n" }
            .joined(separator: "\n")
        _ = try fixture.run(
            try TextBlockReader(path: try write(text, in: fixture)),
            ImportOptions(entity: "DiaryEntry"))
        #expect(try fixture.count("SELECT count(*) FROM Z_1TAGS") == 202)
        #expect(try links(fixture).suffix(2) == [["E100", "t2"], ["E100", "u0"]])
        #expect(try fixture.store.connection.integrityCheck() == ["ok"])
    }

    @Test func testFlatAndGeneralPathsWriteTheSameStore() throws {
        let flat = try ImportFixture("Diary")
        _ = try flat.run(
            try TextBlockReader(path: try write(Self.diary, in: flat)),
            ImportOptions(entity: "DiaryEntry"))
        let general = try ImportFixture("Diary")
        _ = try general.run(
            GeneralPathReader(try TextBlockReader(path: try write(Self.diary, in: general))),
            ImportOptions(entity: "DiaryEntry"))
        // Creation times default to each run's start for the undated blocks.
        let dated = "SELECT ZTITLE, ZBODY, ZWORDCOUNT, ZSUBTITLE FROM ZDIARYENTRY ORDER BY Z_PK"
        #expect(try flat.rows(dated) == general.rows(dated))
        #expect(try links(flat) == links(general))
        #expect(
            try flat.rows("SELECT Z_PK, ZNAME FROM ZTAG ORDER BY Z_PK")
                == general.rows("SELECT Z_PK, ZNAME FROM ZTAG ORDER BY Z_PK"))
        #expect(
            try flat.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                == general.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"))
    }

    @Test func testUnknownHeaderIsLocatedOrIgnoredOnRequest() throws {
        let fixture = try ImportFixture("Diary")
        let path = try write("Title: A\nMood: fine\nBody text.", in: fixture)
        let error = try #require(throws: ImportError.self) {
            _ = try fixture.run(
                try TextBlockReader(path: path), ImportOptions(entity: "DiaryEntry"))
        }
        #expect(error.code == .unknownField)
        #expect(error.position.line == 2)
        #expect(error.position.column == 7)
        #expect(try fixture.count("SELECT count(*) FROM ZDIARYENTRY") == 0)

        var options = ImportOptions(entity: "DiaryEntry")
        options.ignoresUnknownFields = true
        let summary = try fixture.run(try TextBlockReader(path: path), options)
        #expect(summary.inserted == 1)
    }

    @Test func testTwoHeadersForOnePropertyAreRefused() throws {
        let fixture = try ImportFixture("Diary")
        let path = try write(
            "Title: A\nDate: 2024-01-01T00:00:00Z\ncreated: 2024-01-02T00:00:00Z\n", in: fixture)
        let error = try #require(throws: ImportError.self) {
            _ = try fixture.run(
                try TextBlockReader(path: path), ImportOptions(entity: "DiaryEntry"))
        }
        #expect(error.code == .structure)
        #expect(error.position.line == 3)
        #expect(error.message.contains("'created' and 'Date'"))
    }

    @Test func testValueRefusedAtWriteIsLocatedAtItsField() throws {
        let fixture = try ImportFixture("Diary")
        let long = String(repeating: "x", count: 121)
        let path = try write(
            "Title: ok\n\nDate: 2024-01-01T00:00:00Z\nTitle: \(long)\n", in: fixture)
        let error = try #require(throws: ImportError.self) {
            _ = try fixture.run(
                try TextBlockReader(path: path), ImportOptions(entity: "DiaryEntry"))
        }
        #expect(error.code == .validation)
        #expect(error.position.line == 4)
        #expect(error.position.column == 8)
        #expect(error.message.contains("at most 120"))
        #expect(try fixture.count("SELECT count(*) FROM ZDIARYENTRY") == 0)
    }

    @Test func testSkipPolicyLeavesOutTheBadBlockOnly() throws {
        let fixture = try ImportFixture("Diary")
        let path = try write(
            "Title: A\nTags: one\n\nTitle: B\nDate: yesterday\nTags: two\n\nTitle: C\nTags: two\n",
            in: fixture)
        var options = ImportOptions(entity: "DiaryEntry")
        options.errorPolicy = .skip
        let summary = try fixture.run(try TextBlockReader(path: path), options)
        #expect(summary.rejected == 1)
        #expect(try entries(fixture).map { $0[0] } == ["A", "C"])
        #expect(try links(fixture) == [["A", "one"], ["C", "two"]])
    }

    @Test func testAToOneRelationshipGoesThroughTheGeneralPath() throws {
        let fixture = try ImportFixture("Recipes")
        let path = try write(
            "name: Pie\ntype: Dessert\n\nname: Soup\ntype: Starter\n\nname: Tart\ntype: Dessert\n",
            in: fixture)
        let summary = try fixture.run(
            try TextBlockReader(path: path), ImportOptions(entity: "Recipe"))
        #expect(summary.insertedByEntity == ["Recipe": 3, "RecipeType": 2])
        #expect(
            try fixture.rows(
                "SELECT r.ZNAME, t.ZNAME FROM ZRECIPE r JOIN ZRECIPETYPE t ON t.Z_PK = r.ZTYPE ORDER BY r.Z_PK"
            ) == [["Pie", "Dessert"], ["Soup", "Starter"], ["Tart", "Dessert"]])
    }

    @Test func testAUniqueKeyUpsertsThroughTheGeneralPath() throws {
        let fixture = try ImportFixture("Diary")
        let path = try write("name: rain\n\nname: sun\n\nname: rain\n", in: fixture)
        let summary = try fixture.run(try TextBlockReader(path: path), ImportOptions(entity: "Tag"))
        #expect(summary.inserted == 2)
        #expect(try fixture.count("SELECT count(*) FROM ZTAG") == 2)
    }
}

/// A skipped record leaves nothing behind, in the store or in the run's
/// caches: later records never link to an object that was rolled back.
struct ImporterRollbackTests {
    static let longTag = String(repeating: "t", count: 101)

    private func expectNoDanglingLinks(_ fixture: ImportFixture, summary: ImportSummary) throws {
        #expect(summary.rejected == 1)
        #expect(
            try fixture.count(
                "SELECT count(*) FROM Z_1TAGS WHERE Z_3TAGS NOT IN (SELECT Z_PK FROM ZTAG)")
                == 0)
        #expect(try fixture.count("SELECT count(*) FROM ZTAG WHERE ZNAME = 'fresh'") == 1)
        #expect(try fixture.count("SELECT count(*) FROM Z_1TAGS") == 1)
        #expect(summary.insertedByEntity == ["DiaryEntry": 1, "Tag": 1])
    }

    @Test func testTxtBlocksSkippedRecordLeavesNoCachedTag() throws {
        let fixture = try ImportFixture("Diary")
        let url = fixture.folder.file("diary.txt")
        try Data(
            "Title: A\nTags: fresh, \(Self.longTag)\n\nTitle: B\nTags: fresh\n".utf8
        ).write(to: url)
        var options = ImportOptions(entity: "DiaryEntry")
        options.errorPolicy = .skip
        let summary = try fixture.run(try TextBlockReader(path: url.path), options)
        try expectNoDanglingLinks(fixture, summary: summary)
    }

    @Test func testRecordsSkippedRecordLeavesNoCachedTag() throws {
        let fixture = try ImportFixture("Diary")
        var options = ImportOptions(entity: "DiaryEntry")
        options.errorPolicy = .skip
        let summary = try fixture.run(
            ArrayRecordReader([
                [("title", .text("A")), ("tags", .text("fresh, \(Self.longTag)"))],
                [("title", .text("B")), ("tags", .text("fresh"))],
            ]), options)
        try expectNoDanglingLinks(fixture, summary: summary)
    }
}

/// Linking a record to an object the store already had changes that
/// object's relationship: its `Z_OPT` goes up once per commit, as Core Data
/// raises it, so a context holding it sees the change.
struct ImporterOptimisticLockTests {
    @Test func testLinkedExistingTagsGetTheirOptimisticLockRaised() throws {
        let fixture = try ImportFixture("Diary")
        let url = fixture.folder.file("diary.txt")
        try Data("Title: A\nTags: rain\n".utf8).write(to: url)
        _ = try fixture.run(
            try TextBlockReader(path: url.path), ImportOptions(entity: "DiaryEntry"))
        #expect(try fixture.count("SELECT Z_OPT FROM ZTAG WHERE ZNAME = 'rain'") == 1)

        try Data("Title: B\nTags: rain, sun\n\nTitle: C\nTags: rain\n".utf8).write(to: url)
        _ = try fixture.run(
            try TextBlockReader(path: url.path), ImportOptions(entity: "DiaryEntry"))
        #expect(try fixture.count("SELECT Z_OPT FROM ZTAG WHERE ZNAME = 'rain'") == 2)
        #expect(try fixture.count("SELECT Z_OPT FROM ZTAG WHERE ZNAME = 'sun'") == 1)
        #expect(try fixture.count("SELECT max(Z_OPT) FROM ZDIARYENTRY") == 1)
    }

    @Test func testRecordsLinkedToAnExistingTypeRaiseItsLock() throws {
        let fixture = try ImportFixture("Diary")
        _ = try fixture.run(
            ArrayRecordReader([[("title", .text("A")), ("tags", .text("rain"))]]),
            ImportOptions(entity: "DiaryEntry"))
        _ = try fixture.run(
            ArrayRecordReader([[("title", .text("B")), ("tags", .text("rain"))]]),
            ImportOptions(entity: "DiaryEntry"))
        #expect(try fixture.count("SELECT Z_OPT FROM ZTAG WHERE ZNAME = 'rain'") == 2)
    }
}
