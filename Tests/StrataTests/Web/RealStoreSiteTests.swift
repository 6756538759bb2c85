import Foundation
import Testing

@testable import StrataWeb

/// The view on stores Core Data wrote (Fixtures/coredata): every entity's
/// page and every object's page opens, and the files are left as they were,
/// the WAL included (never written, never checkpointed).
struct RealStoreSiteTests {
    @Test(arguments: ["ddg-bookmarks/Bookmarks_V5.sqlite", "ddg-bookmarks/Bookmarks_V1.sqlite"])
    func everyPageOfACoreDataStoreOpensAndTheFilesStayAsTheyWere(fixture: String) throws {
        let folder = try TemporaryDirectory()
        let url = try folder.copyFixtureStore(fixture)
        let files = [url.path, url.path + "-wal"].filter {
            FileManager.default.fileExists(atPath: $0)
        }
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let site = try StoreSite(storeAt: url)
        let model = site.respond(webRequest("/"))
        #expect(model.status == 200)
        var objects = 0
        for entity in site.model.entities {
            for object in StoreSiteTests.walk(site, "/entity/\(entity.name)") {
                #expect(site.respond(webRequest(object)).status == 200, "\(object)")
                objects += 1
            }
        }
        #expect(objects > 0)
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
    }
}
