@testable import StrataWeb

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// A site on a small Diary store (newest version: an entry with a
        /// photo, a tag), made once per process.
        enum WebRequestFixture {
            static let site: StoreSite? = try? makeSite()

            static func makeSite() throws -> StoreSite {
                let (model, folder) = try FuzzFixtures.newestDiaryAndFolder("web")
                let url = folder.appendingPathComponent("D.sqlite")
                let store = try Store.create(at: url, model: model)
                let context = try Context(store: store, model: model)
                let entry = try context.insert("DiaryEntry")
                try entry.set("title", "<b>Paris</b>")
                try entry.set("body", "Paris\nday one #paris")
                let tag = try context.insert("Tag")
                try tag.set("name", "paris")
                try entry.add(tag, to: "tags")
                let medium = try context.insert("Medium")
                try medium.setValue(
                    .data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])), forKey: "data"
                )
                try medium.set("type", "image")
                try medium.set("diaryEntry", entry)
                try context.save()
                try store.close()
                return try StoreSite(storeAt: url)
            }
        }

        /// The bytes as a request to the web view: line 1 the path, line 2
        /// the query (`name=value&…`), line 3 a `Range` header, line 4 a
        /// `Host` header. The answer must be one of the statuses the view
        /// gives, and no HTML page may hold a script element (every value,
        /// the request's own included, is escaped).
        static func webRequest(_ data: Data) {
            // A fixture that did not build would pass every input unseen.
            guard let site = WebRequestFixture.site else {
                preconditionFailure("the web request fixture did not build")
            }
            let lines = String(decoding: data, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            func line(_ index: Int) -> String? { index < lines.count ? String(lines[index]) : nil }
            var request = HTTPRequest(path: line(0) ?? "/")
            for pair in (line(1) ?? "").split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if let name = parts.first {
                    request.query[String(name)] = parts.count > 1 ? String(parts[1]) : ""
                }
            }
            if let range = line(2), !range.isEmpty { request.headers["range"] = range }
            if let host = line(3), !host.isEmpty { request.headers["host"] = host }
            let response = site.respond(request)
            let statuses: Set = [200, 206, 404, 416, 421, 500]
            precondition(statuses.contains(response.status), "status \(response.status)")
            if response.header("Content-Type")?.hasPrefix("text/html") == true {
                let page = String(decoding: response.body, as: UTF8.self).lowercased()
                precondition(!page.contains("<script"), "a script element on \(request.path)")
            }
            if response.status == 206, let range = response.header("Content-Range") {
                precondition(range.hasPrefix("bytes "), "Content-Range \(range)")
            }
        }
    }
#endif
