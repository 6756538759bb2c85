/// The order of an Xcode model bundle's version folders, and why.
///
/// Apps name their versions in many ways — `Model.xcdatamodel`,
/// `Model 2.xcdatamodel` (Xcode's own), `Model_v7`, `V3`,
/// `XCServerCoreData1.1.0` — so the order comes from the whole version that
/// ends a folder's name, compared part by part as numbers (`1.10.0` after
/// `1.9.2`). The folder without a number (or named exactly as the bundle)
/// is the base and comes first; the current version (`.xccurrentversion`)
/// comes last. A given order (`--order`) replaces all of this.
///
/// ```swift
/// let order = try XcodeModelVersionOrder(
///     folders: ["Model 2.xcdatamodel", "Model.xcdatamodel"], bundleName: "Model",
///     current: "Model 2.xcdatamodel")
/// print(order.folders)      // ["Model.xcdatamodel", "Model 2.xcdatamodel"]
/// print(order.explanation)  // how the order was chosen
/// ```
public struct XcodeModelVersionOrder: Hashable, Sendable {
    /// The version folders to convert, oldest first.
    public var folders: [String]
    /// Folders left out: numbered after the current version, or missing
    /// from a given order.
    public var leftOut: [String]
    /// One line telling the order chosen and the rule behind it.
    public var explanation: String

    /// The most parts a version may have (`1.2.3.4.5.6`).
    static let maximumParts = 6

    /// Orders `folders` by the versions in their names.
    ///
    /// - Parameters:
    ///   - folders: The bundle's `*.xcdatamodel` folder names.
    ///   - bundleName: The bundle's name without its extension: a folder
    ///     named exactly so is the base version.
    ///   - current: The folder `.xccurrentversion` names, if any; it must be
    ///     one of `folders`.
    ///   - given: An order given by the user (folder names, with or without
    ///     `.xcdatamodel`), replacing the rule.
    /// - Throws: ``XcodeModelError`` naming each folder whose version cannot
    ///   be read or equals another folder's, or each name of `given` that is
    ///   no folder or is listed twice.
    public init(
        folders: [String], bundleName: String, current: String?, given: [String]? = nil
    ) throws(XcodeModelError) {
        if let given {
            self = try Self.given(given, folders: folders, current: current)
            return
        }
        var issues: [XcodeModelIssue] = []
        var numbered: [(folder: String, version: [Int])] = []
        var unnumbered: [String] = []
        for folder in folders.sorted() {
            switch Self.version(of: folder, bundleName: bundleName) {
            case .none: unnumbered.append(folder)
            case .number(let parts): numbered.append((folder, parts))
            case .unreadable(let reason):
                issues.append(XcodeModelIssue(file: folder, message: reason))
            }
        }
        numbered.sort {
            Self.precedes($0.version, $1.version)
                || (!Self.precedes($1.version, $0.version) && $0.folder < $1.folder)
        }
        for (left, right) in zip(numbered, numbered.dropFirst())
        where !Self.precedes(left.version, right.version) {
            issues.append(
                XcodeModelIssue(
                    file: right.folder,
                    message: "its version \(Self.text(right.version)) equals that of "
                        + "\(left.folder); name the order with --order"))
        }
        // Two unnumbered folders are two bases, unless one of them is the
        // current version, which goes last anyway.
        let bases = unnumbered.filter { $0 != current }
        if bases.count > 1 {
            issues.append(
                XcodeModelIssue(
                    file: bases[1],
                    message: "no version number in its name, as \(bases[0]); which is the "
                        + "base is ambiguous; name the order with --order"))
        }
        guard issues.isEmpty else { throw XcodeModelError(issues: issues) }

        var ordered = bases + numbered.map(\.folder)
        var leftOut: [String] = []
        var currentNote = ""
        if let current, let position = ordered.firstIndex(of: current) {
            leftOut = Array(ordered[(position + 1)...])
            ordered = Array(ordered[...position])
        } else if let current, unnumbered.contains(current) {
            ordered.append(current)
            if ordered.count > 1 {
                currentNote = "; \(current) has no number but is the current version, so it is last"
            }
        }
        self.folders = ordered
        self.leftOut = leftOut
        let versions = Dictionary(uniqueKeysWithValues: numbered.map { ($0.folder, $0.version) })
        let listed = ordered.map { folder in
            versions[folder].map { "\(folder) (\(Self.text($0)))" } ?? folder
        }
        explanation =
            "version order: " + listed.joined(separator: ", ")
            + " — by the version ending each folder's name, compared part by part as numbers; "
            + "a folder without one is the base and comes first" + currentNote
            + (current == nil ? "" : "; the current version (.xccurrentversion) is last")
            + "; use --order to change it"
    }

    /// The order the user gave.
    private static func given(
        _ names: [String], folders: [String], current: String?
    ) throws(XcodeModelError) -> Self {
        var issues: [XcodeModelIssue] = []
        var ordered: [String] = []
        for name in names {
            let folder = name.hasSuffix(".xcdatamodel") ? name : name + ".xcdatamodel"
            if !folders.contains(folder) {
                issues.append(
                    XcodeModelIssue(
                        file: "--order",
                        message: "no version folder \(folder); versions: "
                            + folders.sorted().joined(separator: ", ")))
            } else if ordered.contains(folder) {
                issues.append(
                    XcodeModelIssue(file: "--order", message: "\(folder) is listed twice"))
            } else {
                ordered.append(folder)
            }
        }
        if ordered.isEmpty && issues.isEmpty {
            issues.append(XcodeModelIssue(file: "--order", message: "expected version folders"))
        }
        guard issues.isEmpty else { throw XcodeModelError(issues: issues) }
        var explanation =
            "version order: " + ordered.joined(separator: ", ") + " — as given by --order"
        if let current, ordered.last != current {
            explanation += "; note: the current version (.xccurrentversion) is \(current)"
        }
        return Self(
            folders: ordered, leftOut: folders.filter { !ordered.contains($0) }.sorted(),
            explanation: explanation)
    }

    private init(folders: [String], leftOut: [String], explanation: String) {
        self.folders = folders
        self.leftOut = leftOut
        self.explanation = explanation
    }

    /// What a folder's name says of its version.
    enum Version: Equatable {
        /// No number: a base version.
        case none
        /// The parts of the version (`[1, 10, 0]`).
        case number([Int])
        /// A number that cannot be a version, and why.
        case unreadable(String)
    }

    /// The version ending `folder`'s name: the digits and dots after the
    /// bundle's name when the folder starts with it (so `Core2 3` is 3 in
    /// bundle `Core2`), else at the end of the name.
    static func version(of folder: String, bundleName: String) -> Version {
        let stem = folder.hasSuffix(".xcdatamodel") ? String(folder.dropLast(12)) : folder
        if stem == bundleName { return .none }
        let rest =
            stem.hasPrefix(bundleName) ? Substring(stem.dropFirst(bundleName.count)) : stem[...]
        let tail = rest.reversed().prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        var token = Substring(String(tail.reversed()))
        while token.first == "." { token = token.dropFirst() }
        guard !token.isEmpty else { return .none }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= maximumParts, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 }) else {
            return .unreadable(
                "cannot read '\(token)' as a version (numbers of at most 9 digits, at most "
                    + "\(maximumParts) parts, separated by single dots); name the order with --order"
            )
        }
        return .number(parts.compactMap { Int($0) })
    }

    /// Whether version `left` comes before `right`: part by part, a missing
    /// part counting as 0 (so `2` and `2.0` are equal).
    static func precedes(_ left: [Int], _ right: [Int]) -> Bool {
        for index in 0..<max(left.count, right.count) {
            let (a, b) = (
                index < left.count ? left[index] : 0, index < right.count ? right[index] : 0
            )
            if a != b { return a < b }
        }
        return false
    }

    package static func text(_ version: [Int]) -> String {
        version.map(String.init).joined(separator: ".")
    }
}
