import Foundation
import StrataCore

// MARK: - Records

extension JSONWriter {
    /// `{"strata_error":"<reason>"`, leaving the object open.
    mutating func openObject(withReason reason: String) {
        openObject()
        member(JSONRecordWriter.errorKey, .text(reason))
    }

    /// `"key":value`, after a comma when the object has members already.
    mutating func member(_ key: String, _ value: RecordValue) {
        self.key(key)
        self.value(value)
    }

    /// An imported value: dates as ISO 8601 text and data as base64 text,
    /// as the importer reads them back.
    mutating func value(_ value: RecordValue) {
        switch value {
        case .null: null()
        case .text(let text): string(text)
        case .integer(let number): integer(number)
        case .unsignedInteger(let number), .uid(let number): integer(number)
        case .real(let number): real(number)
        case .boolean(let flag): boolean(flag)
        case .date(let date): self.date(date.timeIntervalSinceReferenceDate)
        case .data(let data): self.data(data)
        case .array(let elements), .set(let elements):
            openArray()
            for element in elements { self.value(element.value) }
            closeArray()
        case .dictionary(let members):
            openObject()
            for member in members { self.member(member.key, member.value) }
            closeObject()
        }
    }
}
