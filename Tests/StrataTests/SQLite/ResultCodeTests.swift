import Testing

@testable import Strata
@testable import StrataCore

struct ResultCodeTests {
    @Test func testPrimaryResultCodeIsTheLowByte() {
        #expect(ResultCode.constraintUnique.primaryResultCode == .constraint)
        #expect(ResultCode.constraint.primaryResultCode == .constraint)
        #expect(ResultCode.constraintUnique.rawValue == 2067)
        #expect(ResultCode.constraint.isPrimary)
        #expect(!ResultCode.constraintNotNull.isPrimary)
    }

    @Test func testPrimaryPatternMatchesExtendedCodesButExtendedPatternIsExact() {
        #expect(ResultCode.constraint ~= ResultCode.constraintUnique)
        #expect(ResultCode.constraintUnique ~= ResultCode.constraintUnique)
        #expect(!(ResultCode.constraintUnique ~= ResultCode.constraintNotNull))
        #expect(!(ResultCode.constraintUnique ~= ResultCode.constraint))
        #expect(!(ResultCode.busy ~= ResultCode.constraintUnique))
    }

    @Test func testErrorPatternMatchesOnlySQLiteErrors() {
        struct Other: Error {}
        let unique = SQLiteError(code: .constraintUnique, message: "m")
        #expect(ResultCode.constraint ~= unique as any Error)
        #expect(!(ResultCode.constraint ~= Other() as any Error))
    }

    @Test func testDescriptionGivesNumberAndSQLiteName() {
        #expect(ResultCode.constraint.description == "19 (constraint failed)")
    }
}
