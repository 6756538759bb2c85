import Foundation
import StrataCore
import StrataSchema

// MARK: - The store's fsck

extension Store {
    /// Checks everything a store holds against `model` — `strata check`:
    /// the file (`PRAGMA integrity_check`, damaged pages named by their
    /// table); the store's hashes against the model's; the bookkeeping
    /// (`Z_ENT`, `Z_MAX`); every reference between rows, both sides of
    /// every inverse pair, required relationships, counts and ordered
    /// positions (``checkRelationships(model:tables:)``); and every value
    /// of every attribute against the schema's rules (``checkValues(model:)``).
    ///
    /// ```swift
    /// let store = try Store.open(at: url, mode: .readOnly)
    /// let problems = try store.check(model: try store.resolveModel().requiredModel())
    /// ```
    ///
    /// - Parameter model: The version the store holds.
    /// - Returns: Every problem found, by area; empty for a sound store.
    /// - Throws: ``SQLiteError`` when a query fails on a store whose file is
    ///   sound (a damaged file is reported, not thrown).
    public func check(model: Model) throws -> [StoreProblem] {
        var problems = try checkFileProblems()
        guard problems.isEmpty else {
            // Reading further on damaged pages gives SQLite's errors, not
            // the store's problems.
            return problems
        }
        let differences = Store.differences(between: metadata.versionHashes, and: model)
        if !differences.isEmpty {
            problems.append(
                StoreProblem(
                    area: .model, kind: "hashes",
                    message:
                        "the store is not \(model.name) version \(model.version): it differs in "
                        + differences.map(\.description).joined(separator: ", ")))
        }
        let relationships: [RelationshipProblem]
        do {
            relationships = try checkRelationships(
                model: model, tables: nil, knownJoinColumns: [], checksTables: true,
                checksCounts: true)
        } catch let error as StoreError {
            problems.append(StoreProblem(area: .model, kind: "tables", message: "\(error)"))
            return problems
        }
        problems += relationships.map(StoreProblem.init)
        problems += try checkValues(model: model)
        return problems
    }

    /// `PRAGMA integrity_check`, each line with the table of the page or
    /// tree it names (`Tree 5 page 7: …` → `ZRECIPE`), and each table that
    /// cannot be read to its end, named with its entity and the last key
    /// read; empty for a sound file.
    ///
    /// - Throws: Nothing today; a failing check is itself the problem.
    public func checkFileProblems() throws -> [StoreProblem] {
        var problems: [StoreProblem] = []
        var roots: [Int64: String] = [:]
        var tables: [String] = []
        if let statement = try? connection.prepare(
            "SELECT rootpage, name, type FROM sqlite_master WHERE rootpage > 0")
        {
            while (try? statement.step()) == true {
                guard let name = statement.text(at: 1) else { continue }
                roots[statement.int64(at: 0)] = name
                if statement.text(at: 2) == "table" { tables.append(name) }
            }
        }
        do {
            let lines = try connection.integrityCheck()
            if lines == ["ok"] { return [] }
            problems += lines.map { line in
                // "Tree N page M cell K: …": N is the root page of a tree.
                var table: String?
                let words = line.split(separator: " ")
                for (index, word) in words.enumerated() where index + 1 < words.count {
                    if word == "Tree", let number = Int64(words[index + 1]) {
                        table = roots[number]
                        break
                    }
                }
                return StoreProblem(
                    area: .file, kind: "integrity", message: table.map { "\($0): \(line)" } ?? line)
            }
        } catch {
            problems.append(StoreProblem(area: .file, kind: "integrity", message: "\(error)"))
        }
        // Which tables the damage is in, by the rows that can be read.
        let entities = Dictionary(
            entityRecords.map { ("Z" + $0.name.uppercased(), $0.name) }
        ) { first, _ in first }
        for table in tables.sorted() {
            let hasKey = entities[table] != nil
            var last: Int64?
            do {
                let statement = try connection.prepare(
                    "SELECT \(hasKey ? "Z_PK" : "1") FROM \(SQLiteIdentifier.quoted(table)) NOT INDEXED"
                )
                while try statement.step() { last = statement.int64(at: 0) }
            } catch {
                let place =
                    hasKey
                    ? (last.map { "after Z_PK \($0)" } ?? "from its first row") : "to its end"
                problems.append(
                    StoreProblem(
                        area: .file, kind: "unreadable", entity: entities[table],
                        message: "\(table) cannot be read \(place): \(error)"))
            }
        }
        return problems
    }
}
