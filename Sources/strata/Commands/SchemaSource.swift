import Foundation
import Strata

/// Loading the schemas a command names: a model folder or a single file.
enum SchemaSource {
    /// The chain at `path`: a model folder, or one file as a chain of one.
    static func loadChain(_ path: String) throws -> SchemaChain {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(message: "\(path): no such file or folder")
        }
        let checks: [SchemaChain.Check] = [FetchRequestTemplateCheck.issues]
        return isDirectory.boolValue
            ? try SchemaChain.load(directory: url, checks: checks)
            : try SchemaChain.load(file: url, checks: checks)
    }

    /// One version from `path`: the given `version`, or the newest.
    static func loadModel(_ path: String, version: Int?) throws -> Model {
        let chain = try loadChain(path)
        guard let version else { return chain.newest }
        guard let model = chain.model(version: version) else {
            let known = chain.versions.map { String($0.version) }.joined(separator: ", ")
            throw CommandFailure(message: "\(path): no version \(version) (versions: \(known))")
        }
        return model
    }
}
