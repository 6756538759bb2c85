import Foundation

// MARK: - Version folders and the current version

extension XcodeModelReader {
    /// The plist key of `.xccurrentversion` naming the current version folder.
    static let currentVersionKey = "_XCCurrentVersionName"

    /// The version folders of a bundle in version order
    /// (``XcodeModelVersionOrder``), up to and including the current one.
    static func versionOrder(
        in bundle: URL, given: [String]?, warnings: inout [XcodeModelIssue]
    ) throws(XcodeModelError) -> XcodeModelVersionOrder {
        let bundleName = bundle.lastPathComponent
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
        } catch {
            throw Self.error(bundleName, "cannot read the folder")
        }
        let folders = names.filter { $0.hasSuffix(".xcdatamodel") }
        guard !folders.isEmpty else {
            throw Self.error(
                bundleName, "no model versions; expected Name.xcdatamodel folders in it")
        }
        let current = try currentVersion(in: bundle)
        if let current, !folders.contains(current) {
            throw Self.error(
                ".xccurrentversion",
                "the current version '\(current)' is not in the bundle; versions: "
                    + folders.sorted().joined(separator: ", "))
        }
        let order = try XcodeModelVersionOrder(
            folders: folders, bundleName: bundle.deletingPathExtension().lastPathComponent,
            current: current, given: given)
        if !order.leftOut.isEmpty {
            warnings.append(
                given != nil
                    ? XcodeModelIssue(
                        file: "--order",
                        message: "versions not listed are left out: "
                            + order.leftOut.joined(separator: ", "))
                    : XcodeModelIssue(
                        file: ".xccurrentversion",
                        message: "the current version is '\(current ?? "")'; later versions are "
                            + "left out: " + order.leftOut.joined(separator: ", ")))
        }
        return order
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
}
