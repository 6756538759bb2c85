import Foundation
import StrataContext
import StrataSchema
import StrataStore

/// A test harness for a schema chain, for users' own test suites as for
/// Strata's: for every older version it builds a store with generated
/// objects, migrates it to the newest version through ``Migrator`` and checks
/// the result — `integrity_check`, every reference between rows, the newest
/// version's hashes, objects kept per entity, and every value of every
/// attribute that the chain carries over unchanged.
///
/// ```swift
/// let results = try MigrationHarness(schemas: URL(fileURLWithPath: "Schemas/Diary"))
///     .run(in: temporaryFolder)
/// for result in results { #expect(result.problems == [], "from v\(result.version)") }
/// ```
public struct MigrationHarness {
    /// What migrating a generated store from one version gave.
    public struct Result: Sendable {
        /// The version the store was built at.
        public var version: Int
        /// Objects per entity before, by entity name at that version.
        public var rowsBefore: [String: Int64]
        /// Objects per entity after, at the newest version.
        public var rowsAfter: [String: Int64]
        /// Attribute values compared equal after the migration.
        public var valuesChecked: Int
        /// What was wrong; empty when the migration kept everything it should.
        public var problems: [String]
    }

    /// The model folder (versions and mapping files).
    public let schemas: URL
    /// How the migrations run (custom steps, lossy steps accepted, …).
    public let options: MigrationOptions
    /// Objects generated per concrete entity.
    public let objectsPerEntity: Int

    /// A harness for the chain in `schemas`.
    public init(
        schemas: URL, options: MigrationOptions = MigrationOptions(), objectsPerEntity: Int = 12
    ) {
        self.schemas = schemas
        self.options = options
        self.objectsPerEntity = objectsPerEntity
    }

    /// Builds, migrates and checks a store for every version older than the
    /// newest, in `folder` (which must exist; the stores are left there).
    ///
    /// - Throws: What stops a version's run (a schema or mapping error, a
    ///   refused migration); problems in the result are returned, not thrown.
    public func run(in folder: URL) throws -> [Result] {
        let chain = try SchemaChain.load(directory: schemas)
        var results: [Result] = []
        for model in chain.versions.dropLast() {
            results.append(try run(from: model, chain: chain, in: folder))
        }
        return results
    }

    private func run(from model: Model, chain: SchemaChain, in folder: URL) throws -> Result {
        let url = folder.appendingPathComponent("\(chain.name)-from-v\(model.version).sqlite")
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)  // An earlier run's.
        }
        let store = try Store.create(at: url, model: model)
        let context = try Context(store: store, model: model)
        try SampleDataGenerator(model: model, count: objectsPerEntity).fill(context)
        let carried = carriedAttributes(from: model, chain: chain)
        let before = try values(
            context, model: model,
            attributes: carried.values.reduce(into: [:]) { names, entry in
                names[entry.older] = Array(entry.attributes.keys)
            })
        try store.close()

        var options = self.options
        options.reportsRowCounts = true
        let report = try Migrator(storeAt: url, schemas: schemas, options: options).run()

        let newest = chain.newest
        var problems: [String] = []
        let migrated = try Store.open(at: url)
        defer { try? migrated.close() }
        let integrity = try migrated.connection.integrityCheck()
        if integrity != ["ok"] { problems += integrity.map { "integrity: \($0)" } }
        problems += try migrated.checkRelationships(model: newest).map(\.description)
        if migrated.metadata.versionHashes != newest.versionHashes.mapValues({ Data($0) }) {
            problems.append("the store's hashes are not those of version \(newest.version)")
        }
        let after = try values(
            try Context(store: migrated, model: newest), model: newest,
            attributes: carried.mapValues { Array($0.attributes.values) })
        var checked = 0
        for (newer, entry) in carried {
            for (older, newerName) in entry.attributes {
                for (key, value) in before[entry.older]?[older] ?? [:] {
                    let now = after[newer]?[newerName]?[key]
                    if now == value {
                        checked += 1
                    } else {
                        problems.append(
                            "\(newer)/p\(key).\(newerName): was \(describe(value)), "
                                + "is \(describe(now))")
                    }
                }
            }
        }
        return Result(
            version: model.version, rowsBefore: report.rowsBefore, rowsAfter: report.rowsAfter,
            valuesChecked: checked, problems: problems)
    }

    /// The attributes whose values must survive: newer entity → its older
    /// name and (older attribute name → newer name), for attributes kept
    /// with an inferred step (or none) in every stage, of entities kept with
    /// their objects.
    private func carriedAttributes(
        from model: Model, chain: SchemaChain
    ) -> [String: (older: String, attributes: [String: String])] {
        guard
            let plan = try? MigrationPlan(
                chain: chain, from: model.version, to: chain.newest.version)
        else { return [:] }
        let touched = Set(
            plan.steps.filter { $0.label != .inferred || $0.kind == .widenType }.flatMap {
                [$0.entity + "." + ($0.property ?? "")]
            })
        let entitySteps = Set(
            plan.steps.filter { $0.property == nil && $0.label != .inferred }.map(\.entity))
        var carried: [String: (older: String, attributes: [String: String])] = [:]
        for (newer, older) in plan.correspondence.entities where !entitySteps.contains(newer) {
            guard plan.destination.entity(named: newer)?.isAbstract == false else { continue }
            var attributes: [String: String] = [:]
            for (newerName, olderName) in plan.correspondence.attributes[newer] ?? [:]
            where !touched.contains("\(newer).\(newerName)") {
                attributes[olderName] = newerName
            }
            carried[newer] = (older, attributes)
        }
        return carried
    }

    /// Entity → attribute → primary key → value, for objects of exactly
    /// each entity (subentities have their own entries).
    private func values(
        _ context: Context, model: Model, attributes: [String: [String]]
    ) throws -> [String: [String: [Int64: AttributeValue?]]] {
        var table: [String: [String: [Int64: AttributeValue?]]] = [:]
        for (entity, names) in attributes {
            let name = entity
            guard model.entity(named: name) != nil else { continue }
            var request = FetchRequest(entity: name)
            request.includesSubentities = false
            for object in try context.fetch(request) {
                guard let key = object.objectID.primaryKey else { continue }
                for attribute in names
                where model.allAttributes(of: name).contains(where: { $0.name == attribute }) {
                    table[entity, default: [:]][attribute, default: [:]][key] =
                        try object.value(forKey: attribute)
                }
            }
        }
        return table
    }

    private func describe(_ value: AttributeValue??) -> String {
        switch value {
        case .some(.some(let value)): "\(value)"
        default: "nil"
        }
    }
}
