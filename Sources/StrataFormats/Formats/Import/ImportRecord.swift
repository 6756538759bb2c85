import Foundation
import StrataCore

/// One record of a nested input: a dictionary of fields.
public struct ImportRecord: Hashable, Sendable {
    /// The fields, in input order.
    public var fields: [RecordField]
    /// Where the record starts.
    public var position: SourcePosition
    /// The key of the array the record came from when the root is a
    /// dictionary of arrays (`{"recipes": [...], "types": [...]}`); it names
    /// the entity when the import does not.
    public var group: String?
    /// The record's text exactly as it is in the input, when the reader can
    /// give it (JSON, txt), for the rejects file.
    public var originalText: Data?

    /// Creates a record.
    public init(
        fields: [RecordField], position: SourcePosition, group: String? = nil,
        originalText: Data? = nil
    ) {
        self.fields = fields
        self.position = position
        self.group = group
        self.originalText = originalText
    }
}
