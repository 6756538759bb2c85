import Foundation
import Strata

/// `strata schema from-xcdatamodel MODEL -o DIR [--mapping-models DIR]
/// [--report] [--force]`: convert the versions of an Xcode model, and the
/// app's Core Data mapping models beside them, into a folder of schema and
/// mapping files.
///
/// Every version is converted and validated before anything is written. The
/// files are written into a temporary folder beside DIR and then moved in,
/// so DIR never holds a half-written file or a partial set.
struct SchemaFromXcdatamodelCommand: Command {
    static let name = "from-xcdatamodel"
    static let abstract = "Convert an Xcode model's versions into schema files 1.json … n.json."
    static let usage = """
        USAGE: strata schema from-xcdatamodel <model> -o <dir> [--order <a,b,…>]
                                              [--mapping-models <dir>] [--report] [--force]

        ARGUMENTS:
          <model>             Name.xcdatamodeld (every version up to the current one) or a
                              single Name.xcdatamodel.

        OPTIONS:
          -o, --output <dir>  The model folder to write 1.json … n.json into (created when
                              missing).
          --order <a,b,…>     The version folders, oldest first, instead of the order their
                              names give (the version ending each name; unnumbered first, the
                              current version last). Folders not listed are left out.
          --mapping-models <dir>
                              Also convert every Core Data mapping model in <dir> (and the
                              folders below it): Name.xcmappingmodel packages and compiled .cdm
                              files, each matched to its versions by entity version hashes and
                              written as <from>-<to>.mapping.json.
          --report            Print what each entity mapping does: copied, renamed, computed,
                              converted, created, linked, dropped.
          --force             Replace existing files.
        """

    var model: String
    var output: String
    var force: Bool
    var order: [String]?
    var mappingModels: String?
    var report = false

    static func parse(_ arguments: inout ArgumentList) throws -> Self {
        let force = arguments.flag("--force")
        let report = arguments.flag("--report")
        let mappingModels = try arguments.option("--mapping-models")
        let output = try arguments.option("-o") ?? arguments.option("--output")
        let order = try arguments.option("--order").map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let model = try arguments.positional("<model>")
        try arguments.finish()
        guard let output else { throw UsageError("missing '-o <dir>'", command: Self.self) }
        if let order, order.isEmpty || order.contains(where: \.isEmpty) {
            throw UsageError(
                "--order expects version folder names separated by commas", command: Self.self)
        }
        return Self(
            model: model, output: output, force: force, order: order,
            mappingModels: mappingModels, report: report)
    }

    func run() throws {
        let bundle: XcodeModelBundle
        do {
            bundle = try XcodeModelReader(order: order).read(at: URL(fileURLWithPath: model))
        } catch {
            throw CommandFailure(
                message: "\(error.issues.count) problem(s) in \(model):\n\(error)")
        }
        for warning in bundle.warnings { Terminal.error("warning: \(model): \(warning)") }

        // Everything is checked before the first byte is written. Problems
        // are told at the Xcode model's element they come from: the schema
        // files do not exist yet.
        var files: [(name: String, data: Data, model: Model)] = []
        var issues: [XcodeModelIssue] = []
        for (index, version) in bundle.versions.enumerated() {
            let name = "\(version.version).json"
            let found = SchemaValidator().validate(version, file: name)
            if !found.isEmpty {
                // In the order of the file's lines, as the reader's own issues.
                issues += found.map { bundle.locate($0, inVersion: index) }.enumerated()
                    .sorted {
                        ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
                    }
                    .map(\.element)
                continue
            }
            let data = try SchemaEncoder().encodeData(version)
            _ = try SchemaDecoder().decode(data, file: Self.join(output, name))  // Reads back.
            files.append((name, data, version))
        }
        // Renaming identifiers Core Data could not pair across two versions.
        if issues.isEmpty {
            for index in bundle.versions.indices.dropFirst() {
                let (older, newer) = (bundle.versions[index - 1], bundle.versions[index])
                issues += SchemaChain.renamingIssues(
                    from: older, to: newer, file: "\(newer.version).json"
                ).map { bundle.locate($0, inVersion: index) }
            }
        }
        guard issues.isEmpty else {
            throw CommandFailure(
                message: "\(issues.count) problem(s) in \(model):\n"
                    + "\(XcodeModelError(issues: issues))")
        }
        // The mapping models, checked against the versions just converted.
        let mappings =
            try mappingModels.map {
                try MappingModelFiles.convert(
                    MappingModelFiles.find(in: URL(fileURLWithPath: $0)), versions: bundle.versions,
                    versionFolders: bundle.versionFolders)
            } ?? []
        let written =
            files.map { ($0.name, $0.data) }
            + mappings.map {
                ($0.converted.fileName, $0.converted.data)
            }
        let existing = written.map(\.0).filter {
            FileManager.default.fileExists(atPath: Self.join(output, $0))
        }
        if !existing.isEmpty && !force {
            throw CommandFailure(
                message: "\(output) already has \(existing.joined(separator: ", ")); "
                    + "use --force to replace")
        }
        do {
            try write(written)
        } catch let error as CocoaError {
            throw CommandFailure(
                message: "\(output): cannot write the schema files: "
                    + StoreActivity.reason(of: error))
        }
        if !bundle.orderExplanation.isEmpty {
            Terminal.output("\(model): \(bundle.orderExplanation)")
        }
        for (file, folder) in zip(files, bundle.versionFolders) {
            Terminal.output(
                "Wrote \(Self.join(output, file.name)): \(file.model.name) version "
                    + "\(file.model.version) from \(folder), \(file.model.entities.count) \(file.model.entities.count == 1 ? "entity" : "entities")"
            )
        }
        for (source, converted) in mappings {
            Terminal.output(
                "Wrote \(Self.join(output, converted.fileName)): from \(source.relativePath), "
                    + "versions \(converted.from) → \(converted.to)"
                    + Self.policyNote(converted))
            if report { Terminal.output(converted.report.description) }
        }
    }

    /// Writes the files into a fresh folder beside the output, then renames
    /// that folder into place (no output yet) or each file into it (each
    /// `rename(2)` atomic).
    private func write(_ files: [(name: String, data: Data)]) throws {
        let fileManager = FileManager.default
        let target = URL(fileURLWithPath: output)
        let parent = target.deletingLastPathComponent()
        try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = parent.appendingPathComponent(
            ".\(target.lastPathComponent).\(UUID().uuidString).converting")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        defer { try? fileManager.removeItem(at: staging) }  // Empty unless a move failed.
        for file in files {
            try file.data.write(to: staging.appendingPathComponent(file.name), options: .atomic)
        }
        var isDirectory: ObjCBool = false
        if !fileManager.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            try fileManager.moveItem(at: staging, to: target)
            return
        }
        guard isDirectory.boolValue else {
            throw CommandFailure(message: "\(output) is a file, not a folder")
        }
        for file in files {
            let from = staging.appendingPathComponent(file.name).path
            let to = target.appendingPathComponent(file.name).path
            if force {
                guard rename(from, to) == 0 else {
                    throw CommandFailure(message: "cannot replace \(Self.join(output, file.name))")
                }
            } else {
                // moveItem refuses an existing destination, never replacing one.
                try fileManager.moveItem(atPath: from, toPath: to)
            }
        }
    }

    /// `; entity mapping X names the policy class Y` for each policy, so the
    /// refusal `migrate` will give is no surprise.
    static func policyNote(_ converted: ConvertedMappingModel) -> String {
        converted.mapping.policies.map {
            "; entity mapping \($0.entityMapping ?? $0.entity) names the custom policy "
                + "\($0.className) (migrate needs a Swift step for it, or expressions instead)"
        }.joined()
    }

    /// A file in a folder, as the user wrote the folder.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
