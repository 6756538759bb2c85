import Foundation
import Testing

/// `strata demo`'s closing report: one line per step, whose counts are what
/// `strata info` finds in each store afterwards.
struct DemoReportTests {
    @Test func testTheReportMatchesWhatTheStoresContain() throws {
        let folder = try ScratchFolder()
        let demo = folder.path("demo")
        let outcome = try StrataRunner.run(["demo", demo])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(
            outcome.stdout.components(separatedBy: "== Report: what each step left behind\n").last)
        let lines = report.split(separator: "\n").map(String.init)
        let stores = [
            "Contacts.sqlite", "Diary.sqlite", "Notes.sqlite", "Recipes.sqlite",
            "Diary-v1-migrated.sqlite", "Diary-restored.sqlite",
        ]
        for store in stores {
            let line = try #require(
                lines.first { $0.contains(" \(store) ") }, "no line for \(store)")
            let info = try StrataRunner.run(["info", "\(demo)/\(store)", "--json"])
            #expect(info.status == 0, "\(info.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
            let entities = try #require(object["entities"] as? [[String: Any]])
            let counts = entities.compactMap { entity -> String? in
                guard let rows = entity["rows"] as? Int, rows > 0,
                    let name = entity["name"] as? String
                else { return nil }
                return "\(rows) \(name)"
            }
            #expect(!counts.isEmpty)
            let version = try #require(object["version"] as? Int)
            #expect(
                line.hasSuffix("version \(version): " + counts.joined(separator: ", ")),
                "\(line)")
        }
        let bundle = try #require(lines.first { $0.contains(" Diary.zip ") })
        #expect(bundle.contains("3 media files"))
        #expect(lines.last?.hasPrefix("  Total ") == true)
        // Every timed step says how long it took.
        #expect(lines.filter { $0.contains(" s  ") }.count == 6)
    }
}
