@testable import StrataFormats
@testable import StrataQuery

#if DEBUG
    @testable import Strata
    import Foundation

    extension FuzzTarget {
        /// The fields of the CSV the import-mapping target checks expressions
        /// against (all text, as a header gives them), with one row's values.
        static let importMappingRow: [String: MappingValue] = [
            "name": .string("Soup"), "prepTime": .string("45 min"), "num": .string("44.6"),
            "Culmen Length (mm)": .string("39.1"), "tags": .string("a, b;c"),
            "born": .string("2024-05-01"), "notes": .string("line one\nline two"),
        ]

        /// Reads the bytes as a `strata-import/1` mapping file, checks its
        /// expressions against a CSV header's fields and evaluates those that
        /// pass on one row. An expression the loader and the check accept
        /// must never call an unknown function or one with the wrong number
        /// of arguments when it runs.
        static func importMapping(_ data: Data) {
            var options = ImportOptions()
            do {
                try ImportMappingFile.apply(data: data, file: "fuzz.mapping.json", to: &options)
            } catch {
                return
            }
            let fields = importMappingRow.mapValues { _ in ExpressionType.string }
            // A small limit keeps growing results cheap; regular expressions
            // have their own time bound and stay out of the evaluation.
            let evaluator = ExpressionEvaluator(maximumResultBytes: 1 << 16)
            for computation in options.computed {
                guard (try? computation.check(fields: fields)) != nil,
                    !computation.expression.contains("matches")
                else { continue }
                do {
                    _ = try evaluator.evaluate(computation.node, importMappingRow)
                } catch {
                    precondition(
                        !error.message.hasPrefix("unknown function")
                            && !(error.message.contains(" takes ")
                                && error.message.contains("; write ")),
                        "a checked expression failed its call: \(error.message)")
                }
            }
        }
    }
#endif
