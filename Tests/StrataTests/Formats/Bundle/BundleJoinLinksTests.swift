import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A many-to-many pair is listed from both sides of a bundle but written
/// once: the side whose owners lead the join table's key inserts, the other
/// is only compared; sides that disagree give their union.
struct BundleJoinLinksTests {
    /// The tag names of each entry, by title.
    private static func tags(_ store: Store, model: Model) throws -> [String: [String]] {
        let context = try Context(store: store, model: model)
        var result: [String: [String]] = [:]
        for entry in try context.fetch(FetchRequest(entity: "DiaryEntry")) {
            let title = try entry.string("title") ?? ""
            result[title] = try entry.objects(forKey: "tags").compactMap { try $0.string("name") }
                .sorted()
        }
        return result
    }

    @Test func testTheSideLeadingTheJoinTableInsertsAndTheOtherIsCompared() throws {
        let fixture = try BundleFixture()
        let mapping = try StoreMapping(model: fixture.model, store: fixture.store)
        let connection = fixture.store.connection
        var links = try BundleJoinLinks(model: fixture.model, mapping: mapping) { table in
            let statement = try connection.prepare(
                "SELECT name FROM pragma_table_info(?) WHERE pk = 1")
            try statement.bind(.text(table), at: 1)
            return try statement.step() ? statement.text(at: 0) : nil
        }
        guard
            case .joinTable(let table, let source, let target, _)? =
                mapping.entity(named: "DiaryEntry")?.toMany["tags"]
        else {
            Issue.record("DiaryEntry.tags is not kept in a join table")
            return
        }
        #expect(links.role(of: "tags", in: "DiaryEntry") == .primary(table: 0))
        #expect(links.role(of: "entries", in: "Tag") == .mirror(table: 0))
        #expect(links.role(of: "media", in: "DiaryEntry") == .direct)  // Through a foreign key.
        // Nothing listed yet: the sides agree, and both columns hold only
        // keys of loaded rows.
        #expect(links.knownColumns == ["\(table).\(source)", "\(table).\(target)"])
        links.add(owner: 1, member: 2, role: .primary(table: 0))
        #expect(links.knownColumns.isEmpty)  // One side lists a link the other does not.
        links.add(owner: 2, member: 1, role: .mirror(table: 0))
        #expect(links.knownColumns.count == 2)
    }

    @Test func testSummariesTellAgreeingSidesFromDisagreeingOnes() {
        var links = BundleJoinLinks()
        var agreeing = BundleJoinLinks.Summary()
        var mirrored = BundleJoinLinks.Summary()
        for (owner, member) in [(1, 10), (2, 10), (1, 11)] as [(Int64, Int64)] {
            agreeing.add((owner, member))
        }
        for (owner, member) in [(1, 11), (1, 10), (2, 10)] as [(Int64, Int64)] {
            mirrored.add((owner, member))
        }
        #expect(agreeing == mirrored)  // The same links in another order.
        mirrored.add((2, 11))
        #expect(agreeing != mirrored)
        var swapped = BundleJoinLinks.Summary()
        for (owner, member) in [(10, 1), (10, 2), (11, 1)] as [(Int64, Int64)] {
            swapped.add((owner, member))
        }
        #expect(agreeing != swapped)  // A link is ordered: (owner, member).
        links.add(owner: 1, member: 2, role: .direct)
        #expect(links.disagreeingMirrors.isEmpty)
    }

    @Test func testAgreeingSidesRestoreEveryLinkOnce() throws {
        let fixture = try BundleFixture()
        let (folder, restored) = try fixture.restored()
        _ = folder
        #expect(
            try Self.tags(restored, model: fixture.model)
                == Self.tags(fixture.store, model: fixture.model))
        guard
            case .joinTable(let table, _, _, _)? =
                try StoreMapping(model: fixture.model, store: restored).entity(named: "DiaryEntry")?
                .toMany["tags"]
        else { return }
        let count = try restored.connection.scalar(
            "SELECT count(*) FROM \(SQLiteIdentifier.quoted(table))")
        #expect(count == .integer(5))  // travel, morning for two entries; home for one.
    }

    @Test func testSidesThatDisagreeGiveTheirUnion() throws {
        let fixture = try BundleFixture()
        let entries = try BundleFixture.honestEntries(fixture)
        var tags = try BundleFixture.objects(entries, "data/Tag.jsonl")
        let firstEntry = try #require(
            try BundleFixture.objects(entries, "data/DiaryEntry.jsonl").first)
        let first = try #require(firstEntry["_id"] as? String)
        let title = try #require(firstEntry["title"] as? String)
        let home = try #require(tags.firstIndex { $0["name"] as? String == "home" })
        let travel = try #require(tags.firstIndex { $0["name"] as? String == "travel" })
        // Only the mirror lists the first entry under "home"; only the
        // primary lists it under "travel".
        tags[home]["entries"] = ((tags[home]["entries"] as? [String]) ?? []) + [first]
        tags[travel]["entries"] = ((tags[travel]["entries"] as? [String]) ?? []).filter {
            $0 != first
        }
        let (folder, restored) = try BundleFixture.unarchive(
            try BundleFixture.replacing(entries, "data/Tag.jsonl", with: tags))
        _ = folder
        let restoredTags = try Self.tags(restored, model: fixture.model)
        let original = try Self.tags(fixture.store, model: fixture.model)
        #expect(original[title] == ["morning", "travel"])
        #expect(restoredTags[title] == ["home", "morning", "travel"])
        #expect(restoredTags.filter { $0.key != title } == original.filter { $0.key != title })
    }

    @Test func testAToManyListingAMissingObjectIsRefused() throws {
        let fixture = try BundleFixture()
        let entries = try BundleFixture.honestEntries(fixture)
        var diary = try BundleFixture.objects(entries, "data/DiaryEntry.jsonl")
        // `media` is kept through Medium's key column, not a join table.
        diary[0]["media"] = ((diary[0]["media"] as? [String]) ?? []) + ["Medium/p99"]
        #expect {
            _ = try BundleFixture.unarchive(
                try BundleFixture.replacing(entries, "data/DiaryEntry.jsonl", with: diary))
        } throws: { error in
            (error as? BundleError)?.code == .invalidData
                && "\(error)".contains("DiaryEntry.media lists an object with key p99")
        }
    }

    @Test func testALinkToAMissingObjectIsRefusedFromEitherSide() throws {
        let fixture = try BundleFixture()
        let entries = try BundleFixture.honestEntries(fixture)
        var tags = try BundleFixture.objects(entries, "data/Tag.jsonl")
        tags[0]["entries"] = ((tags[0]["entries"] as? [String]) ?? []) + ["DiaryEntry/p99"]
        var diary = try BundleFixture.objects(entries, "data/DiaryEntry.jsonl")
        diary[0]["tags"] = ((diary[0]["tags"] as? [String]) ?? []) + ["Tag/p99"]
        for tampered in [
            try BundleFixture.replacing(entries, "data/Tag.jsonl", with: tags),
            try BundleFixture.replacing(entries, "data/DiaryEntry.jsonl", with: diary),
        ] {
            #expect {
                _ = try BundleFixture.unarchive(tampered)
            } throws: { error in
                (error as? BundleError)?.code == .invalidData
                    && "\(error)".contains("references do not hold") && "\(error)".contains("99")
            }
        }
    }
}
