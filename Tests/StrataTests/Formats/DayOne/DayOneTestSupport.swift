import Foundation
import Testing

@testable import Strata
@testable import StrataCore
@testable import StrataFormats
@testable import StrataSchema
@testable import StrataStore

/// A Day One JSON export built from the documented format: three entries
/// with tags, places, weather, unknown keys, two photos, an audio recording
/// (`format: aac`, file `.m4a`), a video and a PDF, and a fresh Diary store of the
/// newest version to import it into.
struct DayOneFixture {
    let folder: TemporaryDirectory
    let model: Model
    let storeURL: URL

    static let schemas = ContextFixture.schemas.appendingPathComponent("Diary")

    static let photo1 = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<300).map { UInt8($0 % 251) })
    static let photo2 = Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 90))
    static let audio = Data(
        [0, 0, 0, 0x18] + Array("ftypM4A ".utf8) + Array(repeating: 0x21, count: 200))
    static let video = Data(
        [0, 0, 0, 0x14] + Array("ftypqt  ".utf8) + Array(repeating: 0x42, count: 400))

    static let pdf = Data("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".utf8)

    static let uuid1 = "0123456789ABCDEF0123456789ABCDEF"
    static let uuid2 = "FEDCBA9876543210FEDCBA9876543210"
    static let uuid3 = "00112233445566778899AABBCCDDEEFF"
    static let photoID1 = String(repeating: "A", count: 31) + "1"
    static let photoID2 = String(repeating: "A", count: 31) + "2"
    static let audioID = String(repeating: "B", count: 31) + "1"
    static let videoID = String(repeating: "C", count: 31) + "1"
    static let pdfID = String(repeating: "D", count: 31) + "1"

    static func md5(_ data: Data) -> String { MD5.hex(MD5.hash(data)) }

    /// The entries of the export, as Day One writes them (keys in any
    /// order; tags sorted, as the exporter writes them).
    static func entries() -> [[String: Any]] {
        [
            [
                "uuid": uuid1, "creationDate": "2024-05-01T08:30:00Z",
                "modifiedDate": "2024-05-02T09:00:00Z", "timeZone": "Europe/Paris",
                "text": "# Paris\n\nWalked by the river.\n\n![](dayone-moment://\(photoID1))\n\n"
                    + "![](dayone-moment:/audio/\(audioID))",
                "richText": "{\"meta\":{\"version\":1}}", "tags": ["paris", "travel"],
                "starred": true, "isPinned": false, "isAllDay": false,
                "creationDevice": "iPhone", "editingTime": 12.5,
                "location": [
                    "placeName": "Pont Neuf", "localityName": "Paris",
                    "administrativeArea": "Île-de-France", "country": "France",
                    "latitude": 48.8566, "longitude": 2.3522, "timeZoneName": "Europe/Paris",
                    "region": [
                        "radius": 75, "center": ["latitude": 48.8566, "longitude": 2.3522],
                    ],
                ],
                "weather": [
                    "conditionsDescription": "Sunny", "weatherCode": "clear",
                    "temperatureCelsius": 21.5, "relativeHumidity": 40, "windSpeedKPH": 11,
                    "pressureMB": 1012, "weatherServiceName": "Forecast", "moonPhase": 0.5,
                ],
                "photos": [
                    [
                        "identifier": photoID1, "md5": md5(photo1), "type": "jpeg",
                        "orderInEntry": 0, "date": "2024-05-01T08:31:00Z", "width": 4,
                        "height": 3, "fileSize": photo1.count, "isSketch": false,
                    ]
                ],
                "audios": [
                    [
                        "identifier": audioID, "md5": md5(audio), "format": "aac",
                        "orderInEntry": 1, "date": "2024-05-01T08:32:00Z", "duration": 12.5,
                        "fileSize": audio.count, "sampleRate": "44.1 kHz",
                    ]
                ],
            ],
            [
                "uuid": uuid2, "creationDate": "2024-05-03T10:00:00Z",
                "text": "Second day\n\n![](dayone-moment:/video/\(videoID))\n\n"
                    + "![](dayone-moment://\(photoID2))",
                "tags": ["travel"], "starred": false, "isPinned": true, "isAllDay": false,
                "location": [
                    "placeName": "Gare de Lyon", "localityName": "Lyon", "country": "France",
                    "latitude": 45.76, "longitude": 4.86,
                ],
                "videos": [
                    [
                        "identifier": videoID, "md5": md5(video), "type": "mov",
                        "orderInEntry": 0, "duration": 3, "width": 1920, "height": 1080,
                        "fileSize": video.count,
                    ]
                ],
                "photos": [
                    [
                        "identifier": photoID2, "md5": md5(photo2), "type": "png",
                        "orderInEntry": 1, "width": 2, "height": 2, "fileSize": photo2.count,
                    ]
                ],
            ],
            [
                "uuid": uuid3, "creationDate": "2024-05-04T21:00:00Z",
                "text": "Home\n\n![](dayone-moment:/pdfAttachment/\(pdfID))",
                "pdfAttachments": [
                    [
                        "identifier": pdfID, "md5": md5(pdf), "type": "pdf", "orderInEntry": 0,
                        "fileSize": pdf.count, "pdfName": "ticket.pdf",
                    ]
                ],
                "tags": [String](), "starred": false, "isPinned": false, "isAllDay": true,
                "timeZone": "Europe/London", "userActivity": ["activityName": "Walking"],
            ],
        ]
    }

    /// The media files of the export, by path.
    static func mediaFiles() -> [(String, Data)] {
        [
            ("photos/\(md5(photo1)).jpeg", photo1),
            ("photos/\(md5(photo2)).png", photo2),
            ("audios/\(md5(audio)).m4a", audio),
            ("videos/\(md5(video)).mov", video),
            ("pdfs/\(md5(pdf)).pdf", pdf),
        ]
    }

    /// The JSON of a journal holding `entries`.
    static func journal(_ entries: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(
            withJSONObject: ["metadata": ["version": "1.0"], "entries": entries],
            options: [.prettyPrinted, .sortedKeys])
    }

    /// A zip of `files` (name, bytes), in order.
    static func zip(_ files: [(String, Data)]) -> Data {
        var zip = RawZip()
        for (name, data) in files { zip.add(RawZip.Entry(name: name, content: data)) }
        return zip.data()
    }

    init() throws {
        folder = try TemporaryDirectory()
        model = try SchemaChain.load(directory: Self.schemas).newest
        storeURL = folder.file("Diary.sqlite")
        try Store.create(at: storeURL, model: model).close()
    }

    /// Writes `files` as `name` in the fixture's folder.
    func write(_ files: [(String, Data)], as name: String = "export.zip") throws -> URL {
        let url = folder.file(name)
        try? FileManager.default.removeItem(at: url)
        try Self.zip(files).write(to: url)
        return url
    }

    /// The documented export, whole.
    func export(entries: [[String: Any]] = DayOneFixture.entries()) throws -> URL {
        try write([("Journal.json", try Self.journal(entries))] + Self.mediaFiles())
    }

    /// Imports `url` into the fixture's store.
    @discardableResult
    func importExport(_ url: URL, options: DayOneImportOptions = DayOneImportOptions()) throws
        -> DayOneImportSummary
    {
        let store = try Store.open(at: storeURL)
        defer { try? store.close() }
        return try DayOneImporter(store: store, model: model, options: options).run(url)
    }

    /// Every entry's, medium's and tag's values, to tell a store unchanged.
    func snapshot() throws -> [String: [String]] {
        let store = try Store.open(at: storeURL, mode: .readOnly)
        defer { try? store.close() }
        return try BundleFixture.snapshot(store, model: model)
    }

    /// A file's entries: Journal.json parsed, and the other files' bytes.
    static func contents(of url: URL) throws -> (journal: [String: Any], files: [String: Data]) {
        let reader = try ZipReader(contentsOf: url)
        var journal: [String: Any] = [:]
        var files: [String: Data] = [:]
        for entry in reader.entries where entry.kind == .file {
            let data = try reader.data(of: entry)
            if entry.path.hasSuffix(".json") {
                journal = try #require(
                    try JSONSerialization.jsonObject(with: data) as? [String: Any])
            } else {
                files[entry.path] = data
            }
        }
        return (journal, files)
    }
}
