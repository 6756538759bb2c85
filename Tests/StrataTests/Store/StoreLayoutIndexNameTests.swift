import Foundation
import Testing

@testable import Strata
@testable import StrataSchema
@testable import StrataStore

/// Index names as Core Data writes them since framework 836 (Strata claims
/// 1338): the DDL of a new store against the real stores' text in
/// coredata-format.md §1.6.
struct StoreLayoutIndexNameTests {
    /// Wire's `Message` as Xcode writes it: an `indexed` attribute, a legacy
    /// compound index, a fetch index, a to-one and a subentity.
    static let messageModel = """
        <entity name="Conversation">
          <relationship name="messages" optional="YES" toMany="YES" destinationEntity="Message" inverseName="conversation" inverseEntity="Message"/>
        </entity>
        <entity name="Message">
          <attribute name="nonce_data" optional="YES" attributeType="Binary" indexed="YES"/>
          <attribute name="hiddenInConversation" optional="YES" attributeType="Boolean"/>
          <attribute name="isExpired" optional="YES" attributeType="Boolean"/>
          <attribute name="serverTimestamp" optional="YES" attributeType="Date"/>
          <attribute name="delivered" optional="YES" attributeType="Boolean"/>
          <relationship name="conversation" optional="YES" maxCount="1" destinationEntity="Conversation" inverseName="messages" inverseEntity="Conversation"/>
          <fetchIndex name="byServerTimestamp">
            <fetchIndexElement property="serverTimestamp" type="Binary" order="descending"/>
          </fetchIndex>
          <compoundIndexes>
            <compoundIndex>
              <index value="hiddenInConversation"/>
              <index value="isExpired"/>
              <index value="serverTimestamp"/>
              <index value="delivered"/>
            </compoundIndex>
          </compoundIndexes>
        </entity>
        <entity name="TextMessage" parentEntity="Message">
          <attribute name="text" optional="YES" attributeType="String" indexed="YES"/>
        </entity>
        """

    static func converted() throws -> Model {
        let folder = try TemporaryDirectory()
        let url = try XcodeModelVersionReaderTests.bundle(
            in: folder,
            ["Model.xcdatamodel": XcodeModelVersionReaderTests.contents(messageModel)])
        return try #require(try XcodeModelReader().read(at: url).versions.first)
    }

    /// Exactly the §1.6 statements: `Z_<Entity>_<attribute>` with
    /// `COLLATE BINARY ASC` for indexed attributes (the declaring entity's
    /// name for a subentity's), `Z_<Entity>_<a>_<b>…` for the compound index,
    /// `Z_<Entity>_<fetchIndexName>` for the fetch index; the FK and
    /// `Z_ENT` indexes keep `<TABLE>_<COL>_INDEX`.
    @Test func testNewStoreWritesTheRecentIndexNames() throws {
        let layout = StoreLayout(model: try Self.converted())
        let indexes = layout.createStatements.filter { $0.hasPrefix("CREATE INDEX") }
        #expect(
            indexes == [
                "CREATE INDEX ZMESSAGE_Z_ENT_INDEX ON ZMESSAGE (Z_ENT)",
                "CREATE INDEX ZMESSAGE_ZCONVERSATION_INDEX ON ZMESSAGE (ZCONVERSATION)",
                "CREATE INDEX Z_Message_nonce_data ON ZMESSAGE (ZNONCE_DATA COLLATE BINARY ASC)",
                "CREATE INDEX Z_TextMessage_text ON ZMESSAGE (ZTEXT COLLATE BINARY ASC)",
                "CREATE INDEX Z_Message_byServerTimestamp ON ZMESSAGE "
                    + "(ZSERVERTIMESTAMP COLLATE BINARY DESC)",
                "CREATE INDEX Z_Message_hiddenInConversation_isExpired_serverTimestamp_delivered "
                    + "ON ZMESSAGE (ZHIDDENINCONVERSATION COLLATE BINARY ASC, ZISEXPIRED COLLATE "
                    + "BINARY ASC, ZSERVERTIMESTAMP COLLATE BINARY ASC, ZDELIVERED COLLATE BINARY "
                    + "ASC)",
            ])
    }

    /// The store SQLite holds has the same text, and no index in the old
    /// `<TABLE>_<COL>_INDEX` style for an indexed attribute.
    @Test func testCreatedStoreHoldsTheStatements() throws {
        let folder = try TemporaryDirectory()
        let store = try Store.create(at: folder.file("Wire.sqlite"), model: try Self.converted())
        defer { try? store.close() }  // Reading only.
        var statements: [String] = []
        try store.connection.prepare(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
        ).forEachRow { statements.append($0.text(at: 0) ?? "") }
        #expect(
            statements.contains(
                "CREATE INDEX Z_Message_nonce_data ON ZMESSAGE (ZNONCE_DATA COLLATE BINARY ASC)"))
        #expect(!statements.contains { $0.contains("ZNONCE_DATA_INDEX") })
    }
}
