import Foundation
import Strata

/// `strata query STORE ENTITY [--where PRED] [--arg VALUE]… [--sort KEYS] …`:
/// the objects of an entity that a Core Data predicate selects.
struct QueryCommand: Command {
    static let name = "query"
    static let abstract = "Fetch objects with a Core Data predicate, sorted and limited."
    static let usage = """
        USAGE: strata query <store> <entity> [--where <predicate>] [--arg <value>]...
                            [--sort <keys>] [--limit <n>] [--offset <n>] [--count]
                            [--fields <keys>] [--format table|json|csv] [--schemas <dir>]

        ARGUMENTS:
          <store>             A Core Data SQLite store.
          <entity>            The entity to fetch (its subentities included).

        OPTIONS:
          --where <predicate> An NSPredicate format string, such as "text CONTAINS[cd] %@".
          --arg <value>       A value for the next %@ (or %K, %d, %f), typed by what it is
                              compared with: numbers, ISO-8601 dates, YES/NO, text.
          --sort <keys>       Comma-separated key paths; a leading '-' sorts descending.
          --limit <n>         At most n objects.
          --offset <n>        Skip the first n objects.
          --count             Print only the number of matching objects.
          --fields <keys>     Comma-separated columns: attributes, relationships, or key
                              paths through to-ones (sender.name). Default: every stored
                              attribute, then every relationship (a to-one as the
                              destination's id; a to-many as a count, in JSON its ids).
          --format <format>   table (default), json or csv. A table shows control characters
                              in values as escapes (\\t, \\n, \\r, \\u{1B}). JSON and CSV
                              give dates with every fractional digit stored.
          --schemas <dir>     The model folder; the version matching the store is used.
                              Without it, the model the store names: the schema
                              Strata stored in it, or Core Data's model cache.
        """

    enum Format: String, Sendable { case table, json, csv }

    var store: String
    var entity: String
    var predicate: String?
    var arguments: [String]
    var sort: String?
    var limit: Int?
    var offset: Int?
    var countOnly: Bool
    var fields: String?
    var format: Format
    var schemas: String?

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let countOnly = arguments.flag("--count")
        let predicate = try arguments.option("--where")
        var values: [String] = []
        while let value = try arguments.option("--arg") { values.append(value) }
        let sort = try arguments.option("--sort")
        let limit = try arguments.integerOption("--limit")
        let offset = try arguments.integerOption("--offset")
        let fields = try arguments.option("--fields")
        let formatName = try arguments.option("--format") ?? "table"
        guard let format = Format(rawValue: formatName) else {
            throw UsageError(
                "'--format' must be table, json or csv, not '\(formatName)'", command: Self.self)
        }
        let schemas = try arguments.option("--schemas")
        let store = try arguments.storePath("<store>")
        let entity = try arguments.positional("<entity>")
        try arguments.finish()
        return Self(
            store: store, entity: entity, predicate: predicate, arguments: values, sort: sort,
            limit: limit, offset: offset, countOnly: countOnly, fields: fields, format: format,
            schemas: schemas)
    }

    func validate() throws {
        if let limit, limit < 0 {
            throw UsageError("'--limit' must be 0 or more", command: Self.self)
        }
        if let offset, offset < 0 {
            throw UsageError("'--offset' must be 0 or more", command: Self.self)
        }
        if predicate == nil, !arguments.isEmpty {
            throw UsageError("'--arg' needs a '--where' predicate", command: Self.self)
        }
    }

    func run() throws {
        try StoreActivity.run(store, "query \(entity) in the store") { try query() }
    }

    private func query() throws {
        let opened = try Store.open(at: URL(fileURLWithPath: store), mode: .readOnly)
        defer { try? opened.close() }  // Read-only: nothing to lose on close.
        let model = try StoreModelSource.model(of: opened, schemas: schemas)
        guard model.entity(named: entity) != nil else {
            let known = model.entities.map(\.name).joined(separator: ", ")
            throw CommandFailure(message: "\(store): no entity '\(entity)' (entities: \(known))")
        }
        var request = FetchRequest(entity: entity)
        if let predicate {
            let parsed = try FetchPredicate(
                predicate, textArguments: arguments, entity: entity, model: model)
            try parsed.check(entity: entity, model: model, format: predicate)
            request.predicate = parsed
        }
        for key in (sort ?? "").split(separator: ",") {
            let descending = key.hasPrefix("-")
            request.sortDescriptors.append(
                SortDescriptor(
                    String(key.drop { $0 == "-" || $0 == "+" }).trimmingCharacters(
                        in: .whitespaces),
                    ascending: !descending))
        }
        request.fetchLimit = limit ?? 0
        request.fetchOffset = offset ?? 0
        let context = try Context(store: opened, model: model)
        let columns =
            try fields.map { list in
                try list.split(separator: ",").map {
                    try QueryField.parse(
                        $0.trimmingCharacters(in: .whitespaces), entity: entity, in: model)
                }
            } ?? QueryField.all(of: entity, in: model)
        var rows: [QueryRow] = []
        do {
            if countOnly {
                Terminal.output(String(try context.count(request)))
                return
            }
            try context.forEach(request, batchSize: 1000) { object in
                rows.append(try QueryRow(object, fields: columns))
            }
        } catch var error as Strata.FetchPredicateError {
            // Quote the predicate as typed, which the columns refer to.
            error.predicate = predicate ?? error.predicate
            throw error
        }
        let text = QueryOutput.render(rows, fields: columns.map(\.name), as: format)
        if !text.isEmpty { Terminal.output(text) }
    }
}
