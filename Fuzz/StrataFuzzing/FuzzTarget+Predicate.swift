@testable import StrataQuery
@testable import StrataStore

#if DEBUG
    @testable import Strata
    import Foundation

    /// Where ``FuzzTarget/diaryStore`` lives, for the clean-up at exit.
    nonisolated(unsafe) private var diaryStorePath: String?

    extension FuzzTarget {
        /// An empty Diary 3 store, so compiled conditions can be prepared.
        /// Held while ``diaryStore``'s connection is used.
        static let diaryStoreLock = NSLock()
        nonisolated(unsafe) static let diaryStore: (store: Store, mapping: StoreMapping)? = {
            guard let model = FuzzFixtures.diary3 else { return nil }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "strata-fuzz-\(ProcessInfo.processInfo.processIdentifier).sqlite")
            try? FileManager.default.removeItem(at: url)
            diaryStorePath = url.path
            // Removed when the process exits normally (a crash leaves it in tmp).
            atexit {
                guard let path = diaryStorePath else { return }
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            }
            guard let store = try? Store.create(at: url, model: model),
                let mapping = try? StoreMapping(model: model, store: store),
                (try? PredicateSQLFunctions.register(on: store.connection)) != nil
            else { return nil }
            return (store, mapping)
        }()

        /// Parses the text as a predicate; one that parses is printed,
        /// checked against Diary 3's DiaryEntry, compiled to SQL (which must
        /// then prepare: SQLite refusing the SQL is a bug of the compiler's
        /// bounds) and evaluated on an object graph in memory.
        static func predicate(_ data: Data) {
            guard let text = String(data: data, encoding: .utf8),
                let predicate = try? FetchPredicate(text)
            else { return }
            _ = predicate.description
            _ = predicate.redactedDescription
            _ = predicate.variableNames
            guard let model = FuzzFixtures.diary3,
                (try? predicate.check(entity: "DiaryEntry", model: model, format: text)) != nil
            else { return }
            if let (store, mapping) = diaryStore,
                var compiler = try? PredicateSQLCompiler(mapping: mapping, entity: "DiaryEntry"),
                let condition = try? compiler.condition(predicate)
            {
                let sql = "SELECT count(*) FROM \(compiler.fromClause) WHERE \(condition)"
                // One connection, and the corpus tests run cases in parallel.
                diaryStoreLock.lock()
                defer { diaryStoreLock.unlock() }
                do {
                    _ = try store.connection.prepare(sql)
                } catch {
                    fatalError("compiled SQL does not prepare: \(error)\n\(sql)")
                }
            }
            // MATCHES runs a regular expression, whose time bound is another
            // piece of work; keep patterns out of the evaluation.
            guard !text.uppercased().contains("MATCHES") else { return }
            _ = try? predicate.evaluate(with: FuzzObject.entry)
        }
    }

    /// A small Diary object graph for in-memory evaluation.
    struct FuzzObject: PredicateSubject {
        struct NoSuchKey: Error {}

        var attributes: [String: PredicateValue]
        var toOne: [String: FuzzObject] = [:]
        var toMany: [String: [FuzzObject]] = [:]

        static let entry = FuzzObject(
            attributes: [
                "creationTime": .date(740_000_000), "updateTime": .date(740_000_100),
                "title": .string("Café #one"), "subtitle": .null,
                "body": .string("Hello, world\nsecond line"), "wordCount": .integer(4),
                "icon": .data(Data([0, 1, 2])),
            ],
            toMany: [
                "media": [
                    FuzzObject(attributes: ["type": .string("image"), "data": .data(Data())]),
                    FuzzObject(attributes: ["type": .string("sound"), "data": .null]),
                ],
                "tags": [
                    FuzzObject(attributes: ["name": .string("one")]),
                    FuzzObject(attributes: ["name": .string("Ünïcode")]),
                ],
            ])

        var predicateObjectID: ObjectID? { nil }

        func predicateKeyKind(forKey key: String) throws -> PredicateKeyKind {
            if attributes[key] != nil { return .attribute }
            if toOne[key] != nil { return .toOne }
            if toMany[key] != nil { return .toMany }
            throw NoSuchKey()
        }

        func predicateValue(forKey key: String) throws -> PredicateValue? { attributes[key] }

        func predicateTarget(forKey key: String) throws -> (any PredicateSubject)? { toOne[key] }

        func predicateTargets(forKey key: String) throws -> [any PredicateSubject] {
            toMany[key] ?? []
        }
    }
#endif
