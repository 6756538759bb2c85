import Foundation
import Strata

/// The Core Data mapping models of a folder, converted for a chain: what
/// `schema from-xcdatamodel --mapping-models` and `schema
/// from-xcmappingmodel` share.
enum MappingModelFiles {
    /// The `.xcmappingmodel` packages and `.cdm` files under `folder`
    /// (searched a few levels down, as an Xcode project keeps them), sorted
    /// by path.
    static func find(in folder: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw CommandFailure(message: "\(folder.relativePath): no such folder")
        }
        var found: [URL] = []
        func walk(_ url: URL, depth: Int) {
            guard depth <= 6,
                let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
            else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let child = url.appendingPathComponent(name)
                let values = try? child.resourceValues(forKeys: [
                    .isDirectoryKey, .isSymbolicLinkKey,
                ])
                if values?.isSymbolicLink == true { continue }  // No loops, no escapes.
                if name.hasSuffix(".xcmappingmodel") || name.hasSuffix(".cdm") {
                    found.append(child)
                } else if values?.isDirectory == true {
                    walk(child, depth: depth + 1)
                }
            }
        }
        walk(folder, depth: 0)
        return found
    }

    /// Reads and converts every file; all problems of all files are
    /// gathered before failing, and two files for one version pair are an
    /// error (Core Data would take whichever it found first).
    static func convert(
        _ files: [URL], versions: [Model], versionFolders: [String] = [],
        from: Int? = nil, to: Int? = nil
    ) throws -> [(source: URL, converted: ConvertedMappingModel)] {
        var results: [(URL, ConvertedMappingModel)] = []
        var problems: [String] = []
        let converter = MappingModelConverter(versions: versions, versionFolders: versionFolders)
        for file in files {
            do {
                let model = try XcodeMappingModelReader().read(at: file)
                let converted = try converter.convert(model, from: from, to: to)
                if let other = results.first(where: { $0.1.fileName == converted.fileName }) {
                    problems.append(
                        "\(file.relativePath): it joins versions \(converted.from) and "
                            + "\(converted.to), as \(other.0.relativePath) does; keep one of them")
                    continue
                }
                results.append((file, converted))
            } catch let error as XcodeMappingModelError {
                problems.append(error.description)
            } catch let error as MappingModelError {
                problems.append(error.description)
            }
        }
        guard problems.isEmpty else {
            let count = problems.map { $0.split(separator: "\n").count }.reduce(0, +)
            throw CommandFailure(
                message: "\(count) problem(s) in the mapping models:\n"
                    + problems.joined(separator: "\n") + "\nnothing was written")
        }
        return results
    }
}
