import Foundation

// MARK: - Loading

extension SchemaChain {
    /// Collects the models and issues of the files of one chain.
    struct Loader {
        /// Checks from layers above, run on every decoded version.
        var checks: [Check] = []
        var models: [Model] = []
        var issues: [SchemaIssue] = []
        /// Each decoded version's file and outcome, by version, to locate
        /// issues that compare versions.
        var files: [Int: (file: String, outcome: SchemaDecoder.Outcome)] = [:]
        /// The first model name seen, and its file, to compare the others with.
        var reference: (name: String, file: String)?

        mutating func load(_ url: URL, file: String, number: Int?) {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                issues.append(
                    SchemaIssue(file: file, path: JSONPath.root, message: "cannot read the file"))
                return
            }
            let outcome = SchemaDecoder().decodeReportingIssues(data, file: file)
            var found = outcome.issues
            if let model = outcome.model {
                found += SchemaValidator().validate(model, file: file).compactMap(outcome.locate)
                found += checkNames(model, number: number, file: file).compactMap(outcome.locate)
                found += checks.flatMap { $0(model, file) }.compactMap(outcome.locate)
                models.append(model)
                files[model.version] = (file, outcome)
            }
            issues += SchemaIssue.inDocumentOrder(found)
        }

        /// The file's number against its `version`, and its `model` against
        /// the first file's. Unreadable values (0, "") were reported already.
        mutating func checkNames(_ model: Model, number: Int?, file: String) -> [SchemaIssue] {
            var found: [SchemaIssue] = []
            if let number, model.version != 0, model.version != number {
                found.append(
                    SchemaIssue(
                        file: file, path: "$.version",
                        message: "version is \(model.version) but the file is named "
                            + "\(number).json; expected \(number), or rename the file to "
                            + "\(model.version).json"))
            }
            guard !model.name.isEmpty else { return found }
            if let reference {
                if reference.name != model.name {
                    found.append(
                        SchemaIssue(
                            file: file, path: "$.model",
                            message: "model is \"\(model.name)\" but \(reference.file) says "
                                + "\"\(reference.name)\"; every version names the same model"))
                }
            } else {
                reference = (model.name, file)
            }
            return found
        }

        /// File numbers must run 1, 2, 3, … without gaps.
        mutating func checkSequence(_ numbers: [Int], files: [String]) {
            var expected = 1
            for (number, file) in zip(numbers, files) {
                if number > expected {
                    let missing =
                        number - expected == 1
                        ? "\(expected).json is missing"
                        : "\(expected).json to \(number - 1).json are missing"
                    let message =
                        expected == 1
                        ? "the first version is \(number); \(missing), a chain starts at 1.json"
                        : "version \(number) follows version \(expected - 1); \(missing)"
                    issues.append(SchemaIssue(file: file, path: JSONPath.root, message: message))
                }
                expected = number + 1
            }
        }

        func chain() throws(SchemaError) -> SchemaChain {
            guard issues.isEmpty, !models.isEmpty else { throw SchemaError(issues: issues) }
            let versions = models.sorted { $0.version < $1.version }
            var found: [SchemaIssue] = []
            for (older, newer) in zip(versions, versions.dropFirst()) {
                guard let place = files[newer.version] else { continue }
                found += SchemaChain.renamingIssues(from: older, to: newer, file: place.file)
                    .compactMap(place.outcome.locate)
            }
            guard found.isEmpty else { throw SchemaError(issues: found) }
            return SchemaChain(versions: versions)
        }
    }
}
