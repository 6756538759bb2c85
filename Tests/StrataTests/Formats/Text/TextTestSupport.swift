import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// A txt input written to a throwaway folder for one test.
final class TextFixture {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.file(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes `text` as UTF-8 to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { directory.file(name).path }
}

/// Every record of `reader`, or the error each failing call threw, in order.
enum ReadResult {
    case record(ImportRecord)
    case error(ImportError)

    var record: ImportRecord? {
        if case .record(let record) = self { return record }
        return nil
    }

    var error: ImportError? {
        if case .error(let error) = self { return error }
        return nil
    }
}

/// Reads `reader` to its end, going on after record errors; an error thrown
/// twice in a row (a reader that cannot go on) ends it.
func readAll(_ reader: TreeRecordReader) -> [ReadResult] {
    var results: [ReadResult] = []
    for _ in 0..<1_000 {
        do {
            guard let record = try reader.nextRecord() else { break }
            results.append(.record(record))
        } catch let error as ImportError {
            if results.last?.error == error { break }
            results.append(.error(error))
        } catch {
            Issue.record("unexpected error \(error)")
            break
        }
    }
    return results
}

extension ImportRecord {
    /// The fields as key and value pairs.
    var pairs: [(String, RecordValue)] { fields.map { ($0.key, $0.value) } }

    /// The text value of the field named `key`.
    func text(_ key: String) -> String? {
        guard let field = fields.first(where: { $0.key == key }),
            case .text(let text) = field.value
        else { return nil }
        return text
    }

    /// The field named `key`.
    func field(_ key: String) -> RecordField? { fields.first { $0.key == key } }

    /// The keys in order.
    var keys: [String] { fields.map(\.key) }
}

/// A position in `file` at `line`:`column`, byte `offset`.
func at(_ file: String, _ line: Int, _ column: Int, _ offset: Int64) -> SourcePosition {
    SourcePosition(file: file, line: line, column: column, byteOffset: offset)
}
