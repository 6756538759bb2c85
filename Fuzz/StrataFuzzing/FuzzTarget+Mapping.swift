@testable import StrataMigration
@testable import StrataQuery

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// Parses the text as a mapping expression, type-checks it on Diary
        /// 1's DiaryEntry and evaluates it on one object's values.
        static func expression(_ data: Data) {
            guard let text = String(data: data, encoding: .utf8),
                let node = try? ExpressionParser.parse(text)
            else { return }
            guard let model = FuzzFixtures.diary1 else { return }
            var checker = ExpressionChecker(model: model, entity: "DiaryEntry")
            guard (try? checker.type(of: node)) != nil else { return }
            // Regular expressions get their time bound in another piece of
            // work; keep patterns out of the evaluation.
            guard !text.contains("matches") else { return }
            let values: [String: MappingValue] = [
                "text": .string("Hello #world\nsecond line"), "creationTime": .date(740_000_000),
                "updateTime": .date(740_000_100), "icon": .null,
            ]
            _ = try? ExpressionEvaluator().evaluate(node, values)
        }

        /// Reads the bytes as a mapping file from Diary 1 to Diary 2.
        static func mapping(_ data: Data) {
            guard let source = FuzzFixtures.diary1, let destination = FuzzFixtures.diary2 else {
                return
            }
            _ = try? MigrationMapping(
                data: data, file: "1-2.mapping.json", source: source, destination: destination)
        }
    }
#endif
