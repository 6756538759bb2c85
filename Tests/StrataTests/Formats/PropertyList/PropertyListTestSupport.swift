import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// Plist files written for one test, in a folder removed afterwards.
final class PropertyListTestFiles {
    let directory: TemporaryDirectory
    private var count = 0

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The XML declaration and DOCTYPE Apple writes before `<plist>`.
    static let prolog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" \
        "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    /// Writes `data` to a new file and returns its path.
    func write(_ data: Data, name: String? = nil) throws -> String {
        count += 1
        let url = directory.file(name ?? "test-\(count).plist")
        try data.write(to: url)
        return url.path
    }

    /// Writes `body` after the prolog (which takes lines 1–2, so `body`
    /// starts on line 3) and returns the path.
    func write(plist body: String) throws -> String {
        try write(Data((Self.prolog + body).utf8))
    }

    /// A reader of `body` written after the prolog.
    func reader(
        _ body: String, limits: ImportLimits = .init()
    ) throws -> PropertyListRecordReader {
        try PropertyListRecordReader(path: write(plist: body), limits: limits)
    }

    /// All records of `body` written after the prolog.
    func records(_ body: String, limits: ImportLimits = .init()) throws -> [ImportRecord] {
        try Self.readAll(reader(body, limits: limits))
    }

    /// The error reading `body` ends with.
    func error(
        _ body: String, limits: ImportLimits = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ImportError {
        try #require(throws: ImportError.self, sourceLocation: sourceLocation) {
            try self.records(body, limits: limits)
        }
    }

    /// Every record of `reader`.
    static func readAll(_ reader: PropertyListRecordReader) throws -> [ImportRecord] {
        var records: [ImportRecord] = []
        while let record = try reader.nextRecord() { records.append(record) }
        return records
    }

    /// Wraps `records` in `<plist><array>`, each on its own lines.
    static func array(of records: String...) -> String {
        "<plist version=\"1.0\">\n<array>\n" + records.joined(separator: "\n")
            + "\n</array>\n</plist>\n"
    }
}

extension ImportRecord {
    /// The value of the field `key`, if the record has one.
    func plistValue(_ key: String) -> RecordValue? {
        fields.first { $0.key == key }?.value
    }

    /// The fields' keys and values, without positions.
    var plistEntries: [PlistEntry] { fields.map(PlistEntry.init) }
}

extension RecordValue {
    /// The value with every position left out and dict entries sorted by
    /// key, for comparing records read from different encodings.
    var plistNormalized: PlistEntry.Value {
        switch self {
        case .array(let elements): return .array(elements.map(\.value.plistNormalized))
        case .dictionary(let fields):
            return .dictionary(fields.map(PlistEntry.init).sorted { $0.key < $1.key })
        default: return .scalar(self)
        }
    }
}

/// A field without its position.
struct PlistEntry: Hashable, CustomStringConvertible {
    indirect enum Value: Hashable {
        case scalar(RecordValue)
        case array([Value])
        case dictionary([PlistEntry])
    }

    let key: String
    let value: Value

    init(_ field: RecordField) {
        key = field.key
        value = field.value.plistNormalized
    }

    var description: String { "\(key)=\(value)" }
}
