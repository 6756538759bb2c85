import Foundation
import Testing

@testable import Strata
@testable import StrataCore

struct SQLiteValueTests {
    @Test func testAccessorsReturnOnlyTheirOwnStorageClass() {
        #expect(SQLiteValue.integer(3).int64Value == 3)
        #expect(SQLiteValue.real(3).int64Value == nil)
        #expect(SQLiteValue.integer(3).doubleValue == 3.0)
        #expect(SQLiteValue.text("3").doubleValue == nil)
        #expect(SQLiteValue.text("a").stringValue == "a")
        #expect(SQLiteValue.blob(Data([1])).stringValue == nil)
        #expect(SQLiteValue.blob(Data()).dataValue == Data())
        #expect(SQLiteValue.null.dataValue == nil)
        #expect(SQLiteValue.null.isNull)
        #expect(!SQLiteValue.blob(Data()).isNull)
    }

    @Test func testLiteralsBuildTheMatchingCase() {
        let values: [SQLiteValue] = [1, 2.5, "x"]
        #expect(values == [.integer(1), .real(2.5), .text("x")])
    }

    @Test func testEveryValueRoundTripsThroughAColumn() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(v)")
            let values: [SQLiteValue] = [
                .null, .integer(0), .integer(Int64.min), .integer(Int64.max), .real(-1.5),
                .real(Double.greatestFiniteMagnitude), .text(""), .text("Grüße, 日本 🎉"),
                .text("a\u{0}b"), .blob(Data()), .blob(Data([0, 1, 0, 255])),
            ]
            let insert = try connection.prepare("INSERT INTO T(v) VALUES (?)")
            for value in values {
                try insert.execute([value])
            }
            var read: [SQLiteValue] = []
            try connection.prepare("SELECT v FROM T ORDER BY rowid").forEachRow { row in
                read.append(row.value(at: 0))
            }
            #expect(read == values)
        }
    }

    @Test func testEmptyBlobAndNullAreStoredApart() throws {
        try TemporaryDatabase.withConnection { connection in
            try connection.execute("CREATE TABLE T(v)")
            try connection.execute("INSERT INTO T(v) VALUES (?)", [.blob(Data())])
            try connection.execute("INSERT INTO T(v) VALUES (?)", [.null])
            #expect(try connection.scalar("SELECT typeof(v) FROM T WHERE rowid = 1") == "blob")
            #expect(try connection.scalar("SELECT typeof(v) FROM T WHERE rowid = 2") == "null")
        }
    }
}
