import Foundation
import Testing

/// Every store `strata demo` makes passes `strata check`, archives,
/// unarchives (to a store that passes it too), and archives again to the
/// same bytes: the same objects, keys and media (issue 27: the demo's
/// `Recipes.sqlite` had one-sided images, so its bundle was refused).
struct DemoArchiveRoundTripTests {
    @Test func testEveryDemoStoreArchivesAndUnarchivesToTheSameObjects() throws {
        let folder = try ScratchFolder()
        let demo = folder.path("demo")
        let outcome = try StrataRunner.run(["demo", demo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let stores = try FileManager.default.contentsOfDirectory(atPath: demo)
            .filter { $0.hasSuffix(".sqlite") }.sorted()
        #expect(stores.contains("Recipes.sqlite"))
        #expect(stores.contains("Recipes-seed.sqlite"))
        #expect(stores.count >= 6, "\(stores)")
        for store in stores {
            let checked = try StrataRunner.run(["check", "\(demo)/\(store)"])
            #expect(checked.status == 0, "\(store): \(checked.stdout)\(checked.stderr)")
            let name = String(store.dropLast(".sqlite".count))
            let first = folder.path("\(name).zip")
            let archived = try StrataRunner.run(["archive", "\(demo)/\(store)", "-o", first])
            #expect(archived.status == 0, "\(store): \(archived.stderr)")
            let restored = folder.path("\(name)-restored.sqlite")
            let unarchived = try StrataRunner.run(["unarchive", first, restored])
            #expect(unarchived.status == 0, "\(store): \(unarchived.stderr)")
            let restoredCheck = try StrataRunner.run(["check", restored])
            #expect(
                restoredCheck.status == 0,
                "\(store) restored: \(restoredCheck.stdout)\(restoredCheck.stderr)")
            // A bundle is deterministic: the same objects give the same bytes.
            let second = folder.path("\(name)-again.zip")
            let again = try StrataRunner.run(["archive", restored, "-o", second])
            #expect(again.status == 0, "\(store): \(again.stderr)")
            let bytes = FileManager.default.contents(atPath: first)
            #expect(
                bytes != nil && bytes == FileManager.default.contents(atPath: second), "\(store)")
        }
    }
}
