import Foundation
import Testing

@testable import Strata
@testable import StrataContext
@testable import StrataMigration
@testable import StrataSchema
@testable import StrataStore

/// Issue 26 end to end, in the shape of SRGUserData's history (the media
/// library whose stores Strata refused): `Samples/MediaHistory` holds the
/// app's model (three versions) and its two mapping models — version 1 → 2
/// compiled (`.cdm`: every expression, entity version hashes) setting
/// constants (`dirty = 0` into a Boolean, `uid = -1`), version 2 → 3 as
/// Xcode's package (`.xcmappingmodel`: stored expressions only) renaming
/// `HistoryEntry` to `SRGHistoryEntry` under a new abstract parent and
/// `User` to `SRGUser`, with `deviceUid = $source.deviceName`,
/// `uid = $source.mediaURN`, a stale destination snapshot and an orphan.
///
/// The sample files are written by the test builders (set
/// `STRATA_WRITE_SAMPLES=1` to rewrite them); these tests read the
/// committed files, convert them and migrate a store through both.
struct MediaHistoryMappingModelTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let sample = root.appendingPathComponent("Samples/MediaHistory")

    static func bundle() throws -> XcodeModelBundle {
        try XcodeModelReader().read(
            at: sample.appendingPathComponent("MediaHistory.xcdatamodeld"))
    }

    typealias Fixture = MappingModelFixture

    /// Version 1 → 2 as Xcode compiles it: every expression written out.
    static func compiled(_ v1: Model, _ v2: Model) -> Fixture {
        Fixture(
            sourceModel: v1, destinationModel: v2,
            sourcePath: "Framework/Data/MediaHistory.xcdatamodeld/MediaHistory.xcdatamodel",
            destinationPath: "Framework/Data/MediaHistory.xcdatamodeld/MediaHistory 2.xcdatamodel",
            mappings: [
                .init(
                    source: "HistoryEntry", destination: "HistoryEntry", number: 1,
                    attributes: [
                        .init("date", expression: .source("date")),
                        .init("deviceName", expression: .source("deviceName")),
                        .init("dirty", expression: .constant(.integer(0))),
                        .init(
                            "lastPlaybackPosition", expression: .source("lastPlaybackPosition")),
                        .init("mediaURN", expression: .source("mediaURN")),
                        .init("uid", expression: .constant(.integer(-1))),
                    ],
                    relationships: [
                        .init(
                            "user", sourceKeyPath: "$source.user", sourceMappingName: "UserToUser")
                    ]),
                .init(
                    source: "User", destination: "User", number: 2,
                    attributes: [.init("accountUid", expression: .source("accountUid"))],
                    relationships: [
                        .init(
                            "historyEntries", sourceKeyPath: "$source.historyEntries",
                            sourceMappingName: "HistoryEntryToHistoryEntry")
                    ]),
            ])
    }

    /// Version 2 → 3 as Xcode's package stores it.
    static func package(_ v2: Model, _ v3: Model) -> Fixture {
        var stale = v3
        stale.entities.append(Entity(name: "SRGUserDataDummyClassForWarningSuppression"))
        return Fixture(
            sourceModel: v2, destinationModel: stale,
            sourcePath: "Framework/Data/MediaHistory.xcdatamodeld/MediaHistory 2.xcdatamodel",
            destinationPath: "Framework/Data/MediaHistory.xcdatamodeld/MediaHistory 3.xcdatamodel",
            mappings: [
                .init(
                    source: "User", destination: "SRGUser", number: 2,
                    attributes: [.init("accountUid")], relationships: [.init("historyEntries")]),
                .init(
                    source: "HistoryEntry", destination: "SRGHistoryEntry", number: 1,
                    attributes: [
                        .init("date"), .init("dirty"), .init("lastPlaybackPosition"),
                        .init("deviceUid", expression: .source("deviceName")),
                        .init("uid", expression: .source("mediaURN")),
                    ],
                    relationships: [
                        .init(
                            "user", sourceKeyPath: "$source.user",
                            sourceMappingName: "UserToSRGUser")
                    ]),
            ],
            orphanMappings: [
                .init(
                    source: nil, destination: "SRGUserDataDummyClassForWarningSuppression",
                    number: 1)
            ])
    }

    static let cdmFile = "MediaHistory_v1_v2.cdm"
    static let packageFile = "MediaHistory_v2_v3.xcmappingmodel"

    @Test(.enabled(if: ProcessInfo.processInfo.environment["STRATA_WRITE_SAMPLES"] == "1"))
    func writeTheSampleMappingModels() throws {
        let versions = try Self.bundle().versions
        try Self.compiled(versions[0], versions[1]).cdm()
            .write(to: Self.sample.appendingPathComponent(Self.cdmFile))
        let folder = Self.sample.appendingPathComponent(Self.packageFile)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.package(versions[1], versions[2]).xml().utf8)
            .write(to: folder.appendingPathComponent(XcodeMappingModelReader.xmlFileName))
    }

    /// The committed files read back as the builders describe them.
    @Test func testTheSampleFilesHoldTheirMappings() throws {
        let compiled = try XcodeMappingModelReader().read(
            at: Self.sample.appendingPathComponent(Self.cdmFile))
        #expect(compiled.kind == .cdm)
        #expect(
            compiled.entityMappings.map(\.name) == ["HistoryEntryToHistoryEntry", "UserToUser"])
        let package = try XcodeMappingModelReader().read(
            at: Self.sample.appendingPathComponent(Self.packageFile))
        #expect(package.kind == .xcmappingmodel)
        // The orphan add mapping is not live; mappingnumber gives the order.
        #expect(
            package.entityMappings.map(\.name) == [
                "HistoryEntryToSRGHistoryEntry", "UserToSRGUser",
            ])
        let uid = try #require(
            package.entityMappings[0].attributeMappings.first { $0.name == "uid" }?.valueExpression)
        #expect(try ExpressionNode(archived: uid).expressionText == "$source.mediaURN")
    }

    @Test func testBothConvertToWhatCoreDataWouldDo() throws {
        let bundle = try Self.bundle()
        let converter = MappingModelConverter(
            versions: bundle.versions, versionFolders: bundle.versionFolders)
        let first = try converter.convert(
            XcodeMappingModelReader().read(at: Self.sample.appendingPathComponent(Self.cdmFile)))
        #expect(first.fileName == "1-2.mapping.json")
        #expect(
            first.mapping.entity(named: "HistoryEntry")?.attributes.mapValues(\.text) == [
                "dirty": "false", "uid": "-1",
            ])
        let second = try converter.convert(
            XcodeMappingModelReader().read(
                at: Self.sample.appendingPathComponent(Self.packageFile)))
        #expect(second.fileName == "2-3.mapping.json")
        let entry = try #require(second.mapping.entity(named: "SRGHistoryEntry"))
        #expect(entry.createsObjects && entry.source == "HistoryEntry")
        #expect(
            entry.attributes.mapValues(\.text) == ["deviceUid": "deviceName", "uid": "mediaURN"])
        #expect(entry.relationships == ["user": .remap(keyPath: "user", keep: nil)])
        #expect(second.mapping.entity(named: "SRGUser")?.source == "User")
        let report = second.report.description
        #expect(
            report.contains(
                "HistoryEntryToSRGHistoryEntry: HistoryEntry → SRGHistoryEntry, creates objects"),
            "\(report)")
        #expect(report.contains("copied    date, dirty, lastPlaybackPosition"), "\(report)")
        #expect(report.contains("renamed   deviceUid ← deviceName"), "\(report)")
        #expect(report.contains("dropped   every HistoryEntry") == false, "\(report)")
    }

    /// The .cdm and the .xcmappingmodel of one mapping convert to one file.
    @Test func testACompiledModelAndItsPackageConvertAlike() throws {
        let versions = try Self.bundle().versions
        let converter = MappingModelConverter(versions: versions)
        let fixture = Self.compiled(versions[0], versions[1])
        let fromPackage = try converter.convert(
            XcodeMappingModelReader().readXML(data: Data(fixture.xml().utf8), file: "a.xml"))
        let fromCompiled = try converter.convert(
            XcodeMappingModelReader().readCompiled(data: fixture.cdm(), file: "a.cdm"))
        #expect(fromPackage.mapping.entities == fromCompiled.mapping.entities)
        #expect(fromPackage.mapping.discarded == fromCompiled.mapping.discarded)
    }

    @Test func testAStoreMigratesFromVersion1To3ThroughBoth() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Self.bundle()
        let schemas = directory.file("Schemas/MediaHistory")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        for version in bundle.versions {
            try SchemaEncoder().encodeData(version)
                .write(to: schemas.appendingPathComponent("\(version.version).json"))
        }
        let converter = MappingModelConverter(
            versions: bundle.versions, versionFolders: bundle.versionFolders)
        for file in [Self.cdmFile, Self.packageFile] {
            let converted = try converter.convert(
                XcodeMappingModelReader().read(at: Self.sample.appendingPathComponent(file)))
            try converted.data.write(to: schemas.appendingPathComponent(converted.fileName))
        }
        let url = directory.file("History.sqlite")
        try {
            let store = try Store.create(at: url, model: bundle.versions[0])
            defer { try? store.close() }  // Saved below.
            let context = try Context(store: store, model: bundle.versions[0])
            let user = try context.insert("User")
            try user.set("accountUid", "42")
            for (urn, device, position) in [
                ("urn:rts:video:10085364", "iPhone", 12.5), ("urn:rts:audio:1", "iPad", 0.0),
            ] {
                let entry = try context.insert("HistoryEntry")
                try entry.set("mediaURN", urn)
                try entry.set("deviceName", device)
                try entry.set("lastPlaybackPosition", position)
                try entry.setObject(user, forKey: "user")
            }
            try context.save()
        }()
        let report = try Migrator(storeAt: url, schemas: schemas).run()
        #expect(report.completedStages == ["1-2", "2-3"])
        let store = try Store.open(at: url)
        defer { try? store.close() }  // Reading only.
        let context = try Context(store: store, model: bundle.versions[2])
        let entries = try context.all("SRGHistoryEntry")
        #expect(
            try entries.map { try $0.string("uid") } == [
                "urn:rts:video:10085364", "urn:rts:audio:1",
            ])
        #expect(try entries.map { try $0.string("deviceUid") } == ["iPhone", "iPad"])
        #expect(
            try entries.map { try $0.value(forKey: "lastPlaybackPosition") } == [
                .real(12.5), .real(0),
            ])
        #expect(
            try entries.map { try $0.value(forKey: "dirty") } == [.boolean(false), .boolean(false)])
        #expect(
            try entries.map { try $0.object(forKey: "user")?.string("accountUid") } == ["42", "42"])
        #expect(
            try context.all("SRGUser").map { try $0.objects(forKey: "historyEntries").count } == [2]
        )
        #expect(try store.connection.integrityCheck() == ["ok"])
    }
}
