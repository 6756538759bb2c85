import Foundation
import Testing

@testable import Strata
@testable import StrataFormats

/// What one call of `nextRecord()` gave: a record or an error.
enum JSONOutcome: Hashable, CustomStringConvertible {
    case record(ImportRecord)
    case error(ImportError)

    var description: String {
        switch self {
        case .record(let record): return "record \(record.position) \(record.fields.map(\.key))"
        case .error(let error): return "error \(error.code) \(error)"
        }
    }

    var record: ImportRecord? {
        if case .record(let record) = self { return record }
        return nil
    }

    var error: ImportError? {
        if case .error(let error) = self { return error }
        return nil
    }
}

/// Input files written for one test, in a throwaway folder.
final class JSONTestFiles {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// Writes `bytes` to a file called `name` and returns its path.
    func write(_ bytes: [UInt8], name: String = "input.json") throws -> String {
        let url = folder.file(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes `text` as UTF-8 to a file called `name` and returns its path.
    func write(_ text: String, name: String = "input.json") throws -> String {
        try write(Array(text.utf8), name: name)
    }

    /// Every outcome of reading `path` to its end: the records and the
    /// errors the reader went on after, then the error that ended it, if any.
    func readAll(
        _ path: String, lines: Bool? = nil, limits: ImportLimits = .init(),
        chunkSize: Int = JSONRecordReader.defaultChunkSize
    ) throws -> [JSONOutcome] {
        let reader = try JSONRecordReader(
            path: path, lines: lines, limits: limits, chunkSize: chunkSize)
        return readAll(reader)
    }

    /// Every outcome of `reader`, as ``readAll(_:lines:limits:chunkSize:)``.
    func readAll(_ reader: JSONRecordReader) -> [JSONOutcome] {
        var outcomes: [JSONOutcome] = []
        for _ in 0..<100_000 {
            do {
                guard let record = try reader.nextRecord() else { break }
                outcomes.append(.record(record))
            } catch {
                outcomes.append(
                    .error(
                        error as? ImportError
                            ?? ImportError(.store, at: SourcePosition(file: ""), "\(error)")))
                if reader.failure != nil { break }
            }
        }
        return outcomes
    }

    /// Reads `text` (written as `name`) and returns its outcomes.
    func outcomes(
        _ text: String, name: String = "input.json", lines: Bool? = nil,
        limits: ImportLimits = .init()
    ) throws -> [JSONOutcome] {
        try readAll(try write(text, name: name), lines: lines, limits: limits)
    }
}

extension ImportRecord {
    /// The value of the top-level field `key`.
    subscript(key: String) -> RecordValue? {
        fields.first { $0.key == key }?.value
    }

    // `field(_:)`, the top-level field `key`, is in TextTestSupport.swift.
}

/// Expects `error` to have `code` and to be at `line`, `column` and, when
/// given, `byteOffset` and `keyPath`.
func expectError(
    _ outcome: JSONOutcome?, _ code: ImportError.Code, line: Int, column: Int,
    byteOffset: Int64? = nil, keyPath: String? = nil, message: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = outcome?.error else {
        Issue.record(
            "expected an error, got \(String(describing: outcome))", sourceLocation: sourceLocation)
        return
    }
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.position.line == line, "\(error)", sourceLocation: sourceLocation)
    #expect(error.position.column == column, "\(error)", sourceLocation: sourceLocation)
    if let byteOffset {
        #expect(error.position.byteOffset == byteOffset, "\(error)", sourceLocation: sourceLocation)
    }
    if let keyPath {
        #expect(error.position.keyPath == keyPath, "\(error)", sourceLocation: sourceLocation)
    }
    if let message {
        #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `position` to be `line`, `column`, `byteOffset` (unless nil)
/// and `keyPath`.
func expectPosition(
    _ position: SourcePosition?, line: Int, column: Int, byteOffset: Int64? = nil,
    keyPath: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        position?.line == line, "\(String(describing: position))", sourceLocation: sourceLocation)
    #expect(
        position?.column == column, "\(String(describing: position))",
        sourceLocation: sourceLocation)
    if let byteOffset {
        #expect(
            position?.byteOffset == byteOffset, "\(String(describing: position))",
            sourceLocation: sourceLocation)
    }
    #expect(
        position?.keyPath == keyPath, "\(String(describing: position))",
        sourceLocation: sourceLocation)
}
