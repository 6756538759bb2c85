import Foundation

// MARK: - Version folders and the current version

extension XcodeModelReader {
    /// The plist key of `.xccurrentversion` naming the current version folder.
    static let currentVersionKey = "_XCCurrentVersionName"

    /// The version folders of a bundle in version order, up to and including
    /// the current one.
    static func versionFolders(
        in bundle: URL, warnings: inout [XcodeModelIssue]
    ) throws(XcodeModelError) -> [String] {
        let bundleName = bundle.lastPathComponent
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
        } catch {
            throw Self.error(bundleName, "cannot read the folder")
        }
        let ordered = orderedVersions(names.filter { $0.hasSuffix(".xcdatamodel") })
        guard let last = ordered.last else {
            throw Self.error(
                bundleName, "no model versions; expected Name.xcdatamodel folders in it")
        }
        guard let current = try currentVersion(in: bundle) else { return ordered }
        guard let position = ordered.firstIndex(of: current) else {
            throw Self.error(
                ".xccurrentversion",
                "the current version '\(current)' is not in the bundle; versions: "
                    + ordered.joined(separator: ", "))
        }
        if current != last {
            let later = ordered[(position + 1)...]
            warnings.append(
                XcodeModelIssue(
                    file: ".xccurrentversion",
                    message: "the current version is '\(current)'; later versions are left out: "
                        + later.joined(separator: ", ")))
        }
        return Array(ordered[...position])
    }

    /// `_XCCurrentVersionName` from `.xccurrentversion`, or nil without the file.
    static func currentVersion(in bundle: URL) throws(XcodeModelError) -> String? {
        let url = bundle.appendingPathComponent(".xccurrentversion")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let plist: Any
        do {
            let data = try Data(contentsOf: url)
            if let hazard = BinaryPropertyList.foundationHazard(in: data) {
                throw Self.error(".xccurrentversion", "\(hazard); expected a dictionary of strings")
            }
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch let error as XcodeModelError {
            throw error
        } catch {
            throw Self.error(".xccurrentversion", "not a property list")
        }
        guard let name = (plist as? [String: Any])?[currentVersionKey] as? String, !name.isEmpty
        else {
            throw Self.error(
                ".xccurrentversion",
                "expected a dictionary with \(currentVersionKey) naming a "
                    + "version folder")
        }
        return name
    }

    /// Folder names in version order: by the number ending the name (none
    /// counts as 1), then by name compared with numbers as numbers.
    static func orderedVersions(_ names: [String]) -> [String] {
        names.sorted { left, right in
            let (a, b) = (versionNumber(left), versionNumber(right))
            if a != b { return a < b }
            return left.compare(right, options: [.numeric]) == .orderedAscending
        }
    }

    /// The number ending a version folder's name: `Model 12.xcdatamodel` is
    /// 12, `Model.xcdatamodel` is 1.
    static func versionNumber(_ folder: String) -> Int {
        let stem = folder.hasSuffix(".xcdatamodel") ? folder.dropLast(12) : Substring(folder)
        let digits = stem.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9 else { return 1 }
        return Int(String(digits.reversed())) ?? 1
    }
}
