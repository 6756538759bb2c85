import Foundation

@testable import Strata
@testable import StrataFormats

/// Writes CSV inputs to a throwaway folder and reads them back as plain
/// values, errors included, so tests compare whole runs at once.
final class CSVFixture {
    let directory: TemporaryDirectory
    private var count = 0

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Writes `bytes` to a new file and returns its path.
    func write(_ bytes: [UInt8], name: String? = nil) throws -> String {
        count += 1
        let url = directory.file(name ?? "input\(count).csv")
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Writes `text` as UTF-8 to a new file and returns its path.
    func write(_ text: String, name: String? = nil) throws -> String {
        try write(Array(text.utf8), name: name)
    }

    /// Opens a reader on `text` written as UTF-8.
    func reader(
        _ text: String, dialect: CSVDialect? = .csv, limits: ImportLimits = .init(),
        bufferSize: Int = 1 << 20
    ) throws -> CSVReader {
        try CSVReader(
            path: write(text), dialect: dialect, limits: limits, bufferSize: bufferSize)
    }
}

/// One step of a read: a record or an error.
enum CSVEvent: Equatable, CustomStringConvertible {
    /// A record's fields; quoted ones in double quotes (not escaped).
    case record([String])
    /// An error's code and `line:column`.
    case error(ImportError.Code, String)

    var description: String {
        switch self {
        case .record(let fields): return "record \(fields)"
        case .error(let code, let place): return "\(code) at \(place)"
        }
    }
}

extension CSVReader {
    /// The fields of the current record as text, quoted ones in quotes.
    func renderedFields() -> [String] {
        (0..<fieldCount).map { index in
            let text = String(decoding: field(index), as: UTF8.self)
            return isQuoted(index) ? "\"\(text)\"" : text
        }
    }

    /// Reads to the end, going on after errors; stops when an error comes
    /// twice in a row (an input that cannot go on) or after 1,000 steps.
    func events() -> [CSVEvent] {
        var events: [CSVEvent] = []
        var lastError: ImportError?
        for _ in 0..<1000 {
            do {
                guard try nextRecord() else { break }
                events.append(.record(renderedFields()))
            } catch let error as ImportError {
                if error == lastError { break }
                lastError = error
                events.append(
                    .error(error.code, "\(error.position.line):\(error.position.column)"))
            } catch {
                events.append(.error(.unreadable, "\(error)"))
                break
            }
        }
        return events
    }
}
