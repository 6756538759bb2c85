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
}
