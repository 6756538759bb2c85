import StrataSchema

/// The versions read from an Xcode model (`Foo.xcdatamodeld` or a lone
/// `Foo.xcdatamodel`), converted to schema models, with what the conversion
/// left out.
public struct XcodeModelBundle: Hashable, Sendable {
    /// The model's name: the bundle's name without its extension.
    public var name: String
    /// The converted versions, numbered 1…n in version order, ending with
    /// the current version.
    public var versions: [Model]
    /// The version folder of each converted version, in the same order
    /// (`Foo 2.xcdatamodel`).
    public var versionFolders: [String]
    /// Things the conversion dropped or could not carry over, none of which
    /// Core Data hashes (fetched properties, versions after the current one,
    /// settings that do not apply to the attribute's type, …).
    public var warnings: [XcodeModelIssue]

    /// How the version order was chosen (``XcodeModelVersionOrder``); empty
    /// for a lone version folder.
    public var orderExplanation = ""

    /// Creates a bundle.
    public init(
        name: String, versions: [Model], versionFolders: [String],
        warnings: [XcodeModelIssue] = []
    ) {
        self.name = name
        self.versions = versions
        self.versionFolders = versionFolders
        self.warnings = warnings
    }

    /// Where a part of a converted version came from.
    public struct Location: Hashable, Sendable {
        /// The version's file, relative to the bundle
        /// (`Model 2.xcdatamodel/contents`).
        public var file: String
        /// The line of the element, when known.
        public var line: Int?
        /// The element, such as `<attribute name="x">`.
        public var element: String
    }

    /// For each version, the element each part came from, by its JSON path
    /// in the schema file the version converts to.
    public var locations: [[String: Location]] = []

    /// `issue`, found in the schema converted from version `index` (0 for
    /// the first), told at the element of the Xcode model it comes from: the
    /// element of the part at the issue's path or of the nearest part
    /// enclosing it. The schema file does not exist yet, so its path would
    /// point nowhere.
    ///
    /// - Returns: An issue naming the version's `contents` file, the
    ///   element's line and the element.
    public func locate(_ issue: SchemaIssue, inVersion index: Int) -> XcodeModelIssue {
        let folder = versionFolders.indices.contains(index) ? versionFolders[index] : name
        let known = locations.indices.contains(index) ? locations[index] : [:]
        for path in [issue.path] + JSONPath.ancestors(of: issue.path) {
            if let location = known[path] {
                return XcodeModelIssue(
                    file: location.file, line: location.line, element: location.element,
                    message: issue.message)
            }
        }
        return XcodeModelIssue(file: folder + "/contents", message: issue.message)
    }
}
