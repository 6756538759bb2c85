import Foundation
import Testing

@testable import Strata
@testable import StrataContext

/// The photo diary: entries with text and media (images, sound recordings).
struct DiaryFlowTests {
    @Test func testEntryWithTwoMediaSavesAndReloads() throws {
        let diary = try ContextFixture("Diary")
        let context = diary.context
        let entry = try context.insert("DiaryEntry")
        try entry.set("text", "A walk by the river")
        let photo = try context.insert("Medium")
        try photo.set("type", "image")
        try photo.setValue(.data(Data([0xFF, 0xD8, 0xFF])), forKey: "data")
        let sound = try context.insert("Medium")
        try sound.set("type", "sound")
        try sound.setValue(.data(Data("RIFF".utf8)), forKey: "data")
        try entry.add(photo, to: "media")
        try sound.setObject(entry, forKey: "diaryEntry")

        // The inverse follows at once, both ways.
        #expect(try photo.object(forKey: "diaryEntry") === entry)
        #expect(
            try entry.objects(forKey: "media").map(\.objectID) == [photo.objectID, sound.objectID])
        #expect(try entry.date("creationTime") != nil)
        #expect(context.hasChanges)

        try context.save()
        #expect(!context.hasChanges)
        #expect(entry.objectID.primaryKey == 1)
        #expect(entry.uri == "x-coredata://\(diary.store.metadata.uuid)/DiaryEntry/p1")
        #expect(try diary.rows("ZMEDIUM") == 2)
        #expect(
            try diary.store.connection.scalar(
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Medium'")?.int64Value == 2)

        let reloaded = try diary.reopened()
        let entries = try reloaded.findAll("DiaryEntry")
        #expect(entries.count == 1)
        #expect(try entries.first?.string("text") == "A walk by the river")
        let media = try entries.first?.objects(forKey: "media") ?? []
        #expect(try media.map { try $0.string("type") } == ["image", "sound"])
        #expect(try media.first?.data("data") == Data([0xFF, 0xD8, 0xFF]))
        #expect(try media.first?.object(forKey: "diaryEntry") === entries.first)
    }

    @Test func testDeletingAnEntryCascadesToItsMediaButNotBack() throws {
        let diary = try ContextFixture("Diary")
        let context = diary.context
        let entry = try context.insert("DiaryEntry")
        try entry.set("text", "two photos")
        var media: [ManagedObject] = []
        for _ in 0..<2 {
            let medium = try context.insert("Medium")
            try medium.set("type", "image")
            try medium.setValue(.data(Data([1])), forKey: "data")
            try entry.add(medium, to: "media")
            media.append(medium)
        }
        try context.save()

        // Deleting a medium leaves the entry.
        try context.delete(media[0])
        try context.save()
        #expect(try diary.rows("ZDIARYENTRY") == 1)
        #expect(try diary.rows("ZMEDIUM") == 1)
        #expect(try entry.objects(forKey: "media").map(\.objectID) == [media[1].objectID])

        // Deleting the entry deletes its media.
        try context.delete(entry)
        try context.save()
        #expect(try diary.rows("ZDIARYENTRY") == 0)
        #expect(try diary.rows("ZMEDIUM") == 0)
        #expect(media[1].isDeleted)
    }

    @Test func testUpdateTimeRefreshesOnEverySaveOfAChangedEntry() throws {
        let diary = try ContextFixture("Diary")
        let context = diary.context
        let entry = try context.insert("DiaryEntry")
        try entry.set("text", "first")
        let created = try #require(try entry.date("creationTime"))
        try entry.set("updateTime", Date(timeIntervalSinceReferenceDate: 0))
        try context.save()
        let firstSave = try #require(try entry.date("updateTime"))
        #expect(firstSave > Date(timeIntervalSinceReferenceDate: 0))

        try entry.set("updateTime", Date(timeIntervalSinceReferenceDate: 0))
        try entry.set("text", "second")
        try context.save()
        #expect(
            try #require(try entry.date("updateTime")) > Date(timeIntervalSinceReferenceDate: 0))
        #expect(try entry.date("creationTime") == created)
        #expect(try diary.store.connection.scalar("SELECT Z_OPT FROM ZDIARYENTRY")?.int64Value == 2)
    }

    @Test func testEmptyEntryIsRefusedByTheSaveRuleAndNothingIsWritten() throws {
        let diary = try ContextFixture("Diary")
        let context = diary.context
        try context.setSaveRule(for: "DiaryEntry") { entry in
            let hasText = ((try? entry.string("text")) ?? nil)?.isEmpty == false
            let hasMedia = ((try? entry.objectIDs(forKey: "media")) ?? []).isEmpty == false
            return hasText || hasMedia ? nil : "an entry needs text or media"
        }
        let entry = try context.insert("DiaryEntry")
        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.failures.map(\.description) == [
                "DiaryEntry/t1: saveRule: an entry needs text or media"
            ]
        }
        #expect(try diary.rows("ZDIARYENTRY") == 0)
        #expect(entry.objectID.isTemporary && entry.isInserted)
        try entry.set("text", "now there is text")
        try context.save()
        #expect(try diary.rows("ZDIARYENTRY") == 1)
    }

    @Test func testEntryWithoutCreationTimeCannotBeSaved() throws {
        let diary = try ContextFixture("Diary")
        let entry = try diary.context.insert("DiaryEntry")
        try entry.setValue(nil, forKey: "creationTime")
        let medium = try diary.context.insert("Medium")
        try medium.set("type", "video")
        #expect {
            try diary.context.save()
        } throws: { error in
            let failures = (error as? ValidationError)?.failures.map(\.description) ?? []
            return failures == [
                "DiaryEntry/t1.creationTime: required: a value is required",
                "Medium/t2.data: required: a value is required",
                "Medium/t2.type: pattern: does not match ^(image|sound)$",
                "Medium/t2.diaryEntry: required: a destination object is required",
            ]
        }
        #expect(try diary.rows("ZDIARYENTRY") == 0)
        #expect(
            try diary.store.connection.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1")?
                .int64Value == 0)
    }
}
