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
}
