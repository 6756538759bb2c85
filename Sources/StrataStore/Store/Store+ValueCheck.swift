import Foundation
import StrataCore
import StrataSchema

// MARK: - Checking values against the schema

extension Store {
    /// Checks every value of every stored attribute against the schema's
    /// rules (``AttributeCheck``: required, lengths, patterns, bounds,
    /// dates) and its type as Core Data stores it: the column's SQLite type,
    /// integer ranges, 16-byte UUIDs, and the external-storage marker of
    /// binaries that allow it, with the file a `0x02` marker names.
    ///
    /// Reads every row once, by entity; only each row's first problem per
    /// attribute is reported.
    ///
    /// - Parameter model: The version the store holds.
    /// - Returns: The problems by entity and key.
    /// - Throws: ``StoreError`` when `model` does not fit the store's tables;
    ///   ``ContextError`` for a pattern that does not compile; ``SQLiteError``.
    public func checkValues(model: Model) throws -> [StoreProblem] {
        let mapping = try StoreMapping(model: model, store: self)
        var problems: [StoreProblem] = []
        for entity in model.entities.sorted(by: { $0.name < $1.name }) where !entity.isAbstract {
            guard let layout = mapping.entity(named: entity.name) else { continue }
            var attributes: [(Attribute, AttributeCheck?)] = []
            var columns: [String] = []
            for attribute in model.allAttributes(of: entity.name) where !attribute.isTransient {
                guard let column = layout.attributeColumns[attribute.name] else { continue }
                attributes.append((attribute, try AttributeCheck(attribute)))
                columns.append("length(\(SQLiteIdentifier.quoted(column)))")
                columns.append(SQLiteIdentifier.quoted(column))
            }
            guard !attributes.isEmpty else { continue }
            let statement = try connection.prepare(
                "SELECT Z_PK, \(columns.joined(separator: ", "))"
                    + " FROM \(SQLiteIdentifier.quoted(layout.table)) WHERE Z_ENT = ?"
                    + " ORDER BY Z_PK")
            try statement.bind(.integer(Int64(layout.number)), at: 1)
            while try statement.step() {
                let key = statement.int64(at: 0)
                for (index, (attribute, check)) in attributes.enumerated() {
                    let column = Int32(2 + 2 * index)
                    if let (rule, message) = problem(
                        of: statement, column, attribute, check, key: key)
                    {
                        problems.append(
                            StoreProblem(
                                area: .value, kind: rule, entity: entity.name, primaryKey: key,
                                property: attribute.name, message: message))
                    }
                }
            }
        }
        return problems
    }

    /// The rule the value in `column` breaks, and how; nil when it keeps
    /// them all. Column `column - 1` holds its length (read before the
    /// value, so a blob is not converted to text first).
    private func problem(
        of statement: Statement, _ column: Int32, _ attribute: Attribute,
        _ check: AttributeCheck?, key: Int64
    ) -> (String, String)? {
        let name = attribute.name
        let type = statement.columnType(column)
        func wrong(_ expected: String) -> (String, String) {
            ("type", "\(name) holds \(Self.describe(type)), not \(expected)")
        }
        func broken(_ violation: AttributeCheck.Violation?) -> (String, String)? {
            violation.map { ($0.rule.rawValue, $0.message) }
        }
        if type == .null {
            return broken(check?.checkMissing())
        }
        switch attribute.type {
        case .string, .uri:
            guard type == .text else { return wrong("text") }
            guard let check, check.checksText else { return nil }
            return broken(check.check(utf8: statement.utf8Bytes(at: column)))
        case .integer16, .integer32, .integer64, .boolean:
            guard type == .integer else { return wrong("an integer") }
            let number = statement.int64(at: column)
            let range: ClosedRange<Int64> =
                switch attribute.type {
                case .integer16: Int64(Int16.min)...Int64(Int16.max)
                case .integer32: Int64(Int32.min)...Int64(Int32.max)
                case .boolean: 0...1
                default: Int64.min...Int64.max
                }
            guard range.contains(number) else {
                return (
                    "type", "\(name) \(number) is outside the range of \(attribute.type.rawValue)"
                )
            }
            return broken(check?.check(number: Double(number)))
        case .double, .float, .decimal, .date:
            let number: Double
            switch type {
            case .integer, .real: number = statement.double(at: column)
            case .text where attribute.type == .decimal:
                // Core Data may keep a decimal as text (§1.4).
                guard let parsed = statement.text(at: column).flatMap(Double.init) else {
                    return wrong("a decimal number")
                }
                number = parsed
            default:
                return wrong(attribute.type == .date ? "a date (seconds)" : "a number")
            }
            return broken(check?.check(number: number))
        case .uuid:
            if type == .blob, statement.int64(at: column - 1) == 16 { return nil }
            if type == .text, statement.text(at: column).flatMap(UUID.init(uuidString:)) != nil {
                return nil
            }
            return wrong("a UUID (16 bytes)")
        case .binary, .transformable:
            guard type == .blob else { return wrong("bytes") }
            guard attribute.allowsExternalStorage else { return nil }
            let bytes = statement.blobBytes(at: column)
            guard !bytes.isEmpty else { return nil }
            do {
                let location = try ExternalBinary.location(
                    ofStored: bytes, storeURL: url, context: "\(name) of row \(key)")
                if case .file(let file) = location,
                    !FileManager.default.fileExists(atPath: file.path)
                {
                    return (
                        "externalFile",
                        "\(name) names the external file \(file.lastPathComponent), which is missing"
                    )
                }
            } catch let error as StoreError {
                return ("externalStorage", error.message)
            } catch {
                return ("externalStorage", "\(error)")
            }
            return nil
        }
    }

    private static func describe(_ type: Statement.ColumnType) -> String {
        switch type {
        case .integer: "an integer"
        case .real: "a real number"
        case .text: "text"
        case .blob: "bytes"
        case .null: "NULL"
        }
    }
}
