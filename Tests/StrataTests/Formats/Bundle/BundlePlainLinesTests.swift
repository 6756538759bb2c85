import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataFormats
@testable import StrataStore

/// The decoder's fast path gives the objects the general reader gives, for
/// every line it takes, and leaves the rest (and their errors) to it.
struct BundlePlainLinesTests {
    /// A decoder over the fixture's honest bundle, and the columns of its
    /// entities.
    struct Setup {
        let fixture: BundleFixture
        let decoder: BundleObjectDecoder
        let columns: [String: EntityColumns]
        let entries: [(String, Data)]

        init() throws {
            fixture = try BundleFixture()
            entries = try BundleFixture.honestEntries(fixture)
            let reader = try ZipReader(contentsOf: fixture.folder.file("honest.zip"))
            let mapping = try StoreMapping(model: fixture.model, store: fixture.store)
            let numbers = Dictionary(
                fixture.store.entityRecords.map { ($0.name, $0.number) }
            ) { first, _ in first }
            var columns: [String: EntityColumns] = [:]
            for (entity, entityMapping) in mapping.entities {
                guard numbers[entity] != nil else { continue }
                columns[entity] = try EntityColumns(
                    entity: entity, model: fixture.model, mapping: entityMapping)
            }
            self.columns = columns
            decoder = BundleObjectDecoder(
                path: "honest.zip", reader: reader, checksums: nil, mapping: mapping,
                numbers: numbers,
                joinLinks: BundleJoinLinks())
        }

        /// The lines of the honest data file of `entity`.
        func lines(of entity: String) throws -> [String] {
            let data = try #require(entries.first { $0.0 == "data/\(entity).jsonl" }?.1)
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        /// `line` read by the fast path (nil when it declined) and by the
        /// general reader (nil when it refused).
        func read(_ line: String, of entity: String) throws -> (
            plain: [String]?, general: [String]?, untouched: Bool
        ) {
            let columns = try #require(columns[entity])
            decoder.begin(columns)
            let bytes = Array(line.utf8)
            var plain = BundleObjectBatch(columns: columns, file: "f", linksOnly: false)
            let taken = try bytes.withUnsafeBufferPointer {
                try decoder.addPlain($0, number: 7, to: &plain)
            }
            var general = BundleObjectBatch(columns: columns, file: "f", linksOnly: false)
            let generalRead: Bool
            do {
                try bytes.withUnsafeBufferPointer {
                    try decoder.addGeneral($0, number: 7, linksOf: nil, to: &general)
                }
                generalRead = true
            } catch is BundleObjectDecoder.LineError {
                generalRead = false
            }
            let untouched =
                plain.count == 0 && plain.values.isEmpty && plain.bytes.isEmpty
                && plain.media.isEmpty && plain.links.isEmpty && plain.toOneKeys.isEmpty
            return (
                taken ? plain.contents : nil, generalRead ? general.contents : nil,
                untouched
            )
        }
    }

    @Test func testEveryLineOfAnHonestBundleTakesTheFastPathToTheSameObject() throws {
        let setup = try Setup()
        var count = 0
        for entity in ["DiaryEntry", "Medium", "Tag"] {
            for line in try setup.lines(of: entity) {
                let read = try setup.read(line, of: entity)
                #expect(read.plain != nil, "declined: \(line)")
                #expect(read.plain == read.general, "\(line)")
                count += 1
            }
        }
        #expect(count > 10)
    }

    /// Lines written otherwise than Strata writes them, all valid: either
    /// path, the same object.
    @Test(arguments: [
        #"{ "title" : "x" , "_id":"DiaryEntry/p1", "creationTime":"2024-01-01T00:00:00Z", "updateTime":"2024-01-01T00:00:00.5+02:00", "wordCount": 3, "starred":false, "pinned":false, "allDay":false }"#,
        #"{"_id":"DiaryEntry/p2","title":"a\u00e9\n\"b\" 😀","body":null,"tags":[],"creationTime":757382400.25,"updateTime":0,"wordCount":0,"starred":false,"pinned":false,"allDay":false}"#,
        #"{"_id":"DiaryEntry/p3","title":"t","creationTime":"2024-01-01","updateTime":"2024-01-01","wordCount":-0,"starred":true,"pinned":false,"allDay":true,"latitude":48.8566,"longitude":-2,"temperatureCelsius":-1.5e1,"tags":["Tag/p1","Tag/p2"]}"#,
        #"{"_id":"DiaryEntry/p4","t\u0069tle":"escaped name","creationTime":"2024-01-01","updateTime":"2024-01-01","wordCount":1,"starred":false,"pinned":false,"allDay":false}"#,
        #"{"_id":"DiaryEntry/p5","title":"base64 icon","icon":"iVBORw0KGgo=","creationTime":"2024-01-01","updateTime":"2024-01-01","wordCount":1,"starred":false,"pinned":false,"allDay":false}"#,
        #"{"_id":"DiaryEntry/p6","title":"big","creationTime":"2024-01-01","updateTime":"2024-01-01","wordCount":1,"starred":false,"pinned":false,"allDay":false,"temperatureCelsius":12345678901234567890}"#,
        #"{"_id":"Medium/p9","type":"image","orderInEntry":2,"data":null,"diaryEntry":null,"fileSize":1234567890123}"#,
        #"{"_id":"Tag/p3","name":"x","entries":null}"#,
    ])
    func testValidLinesGiveTheSameObjectEitherWay(_ line: String) throws {
        let setup = try Setup()
        let entity = try #require(
            line.split(separator: "\"_id\":\"").last?.split(separator: "/").first.map(String.init))
        let read = try setup.read(line, of: entity)
        #expect(read.general != nil, "the general reader refused \(line)")
        if let plain = read.plain {
            #expect(plain == read.general)
        } else {
            #expect(read.untouched)
        }
    }

    /// Lines the general reader refuses: the fast path declines them and
    /// leaves the batch as it was, so the error is the general reader's.
    @Test(arguments: [
        #"{"_id":"DiaryEntry/p1","title":"x","title":"y","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","mood":"happy","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1} x"#,
        #"{"_id":"Tag/p1","title":"x","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1,"tags":["DiaryEntry/p1"]}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1.5}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","creationTime":"2024-13-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":3000000000}"#,
        #"{"_id":"DiaryEntry/p1","title":7,"creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1}"#,
        #"{"_id":"DiaryEntry/p1","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1}"#,
        #"{"_id":"DiaryEntry/p1","title":"x","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1,"starred":1}"#,
        #"{"_id":"Medium/p1","type":"image","data":"media/missing.png"}"#,
        #"{"_id":"DiaryEntry/p1","title":"\ud800","creationTime":"2024-01-01","updateTime":"2024-01-01","starred":false,"pinned":false,"allDay":false,"wordCount":1"#,
        #"[1]"#,
    ])
    func testRefusedLinesAreDeclinedUntouched(_ line: String) throws {
        let setup = try Setup()
        let entity = line.contains("Medium/") ? "Medium" : "DiaryEntry"
        let read = try setup.read(line, of: entity)
        #expect(read.general == nil, "the general reader took \(line)")
        #expect(read.plain == nil)
        #expect(read.untouched)
    }
}
