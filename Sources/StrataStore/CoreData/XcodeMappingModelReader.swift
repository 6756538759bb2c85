import Foundation

/// Reads Xcode's Core Data mapping models into ``XcodeMappingModel`` values:
/// the editable `Name.xcmappingmodel` package (its `xcmapping.xml`) and the
/// compiled `Name.cdm` (coredata-mapping-models.md §1, §6).
///
/// Errors are located: the file, then `object z107` with the line of the
/// field for XML, or `$objects[12]` for an archive, and what was expected.
/// Nothing from the file can crash the reader: the XML parser loads no DTD
/// or entity, the archive reader checks every reference, and cyclic object
/// graphs are followed only one explicit link at a time.
///
/// ```swift
/// let reader = XcodeMappingModelReader()
/// let model = try reader.read(at: URL(fileURLWithPath: "Model 1-2.xcmappingmodel"))
/// print(model.entityMappings.map(\.name))
/// ```
public struct XcodeMappingModelReader: Sendable {
    /// The largest file read (64 MB): real mapping models are a few hundred
    /// kilobytes at most, so more is a damaged or hostile file.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// The file inside a `.xcmappingmodel` package.
    public static let xmlFileName = "xcmapping.xml"

    /// Creates a reader.
    public init() {}

    /// Reads the mapping model at `url`.
    ///
    /// - Parameter url: A `Name.xcmappingmodel` folder (its `xcmapping.xml`
    ///   is read), a bare `xcmapping.xml`, or a compiled `Name.cdm`; a file
    ///   of another name is read as what its first bytes say.
    /// - Returns: The live entity mappings in run order, and for XML the
    ///   snapshots of the source and destination models.
    /// - Throws: ``XcodeMappingModelError`` naming the file as the caller
    ///   named it (`…/Name.xcmappingmodel/xcmapping.xml` for a package) and
    ///   the place.
    public func read(at url: URL) throws(XcodeMappingModelError) -> XcodeMappingModel {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let fileURL: URL
        let file: String
        if exists && isDirectory.boolValue {
            fileURL = url.appendingPathComponent(Self.xmlFileName)
            file = url.relativePath + "/" + Self.xmlFileName
        } else {
            fileURL = url
            file = url.relativePath
        }
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            throw XcodeMappingModelError(
                file: file,
                exists
                    ? "missing; a .xcmappingmodel package holds an \(Self.xmlFileName)"
                    : "no such file; expected a .xcmappingmodel package, an "
                        + "\(Self.xmlFileName) or a .cdm")
        }
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: fileURL.path)[.size]
            if let size = size as? Int, size > Self.maximumFileSize {
                throw XcodeMappingModelError(
                    file: file,
                    "\(size) bytes; mapping models are at most \(Self.maximumFileSize) bytes")
            }
            data = try Data(contentsOf: fileURL)
        } catch let error as XcodeMappingModelError {
            throw error
        } catch {
            throw XcodeMappingModelError(file: file, "cannot read the file")
        }
        switch fileURL.pathExtension.lowercased() {
        case "cdm": return try readCompiled(data: data, file: file)
        case "xml": return try readXML(data: data, file: file)
        default: return try read(data: data, file: file)
        }
    }

    /// Reads a mapping model held in memory, as its first bytes say: a
    /// binary property list is a compiled `.cdm`, anything else the XML.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: The name issues carry.
    /// - Throws: ``XcodeMappingModelError``.
    public func read(data: Data, file: String) throws(XcodeMappingModelError) -> XcodeMappingModel {
        if data.starts(with: Array("bplist".utf8)) {
            return try readCompiled(data: data, file: file)
        }
        return try readXML(data: data, file: file)
    }

    /// Reads the `xcmapping.xml` of a `.xcmappingmodel` package.
    ///
    /// - Parameters:
    ///   - data: The XML bytes.
    ///   - file: The name issues carry.
    /// - Throws: ``XcodeMappingModelError`` for malformed XML, zero or
    ///   several `XDDEVMAPPINGMODEL`s, a dangling or mistyped reference, a
    ///   live property mapping that names another owner, repeated
    ///   `mappingnumber`s, undecodable base64 or archives.
    public func readXML(data: Data, file: String) throws(XcodeMappingModelError)
        -> XcodeMappingModel
    {
        var reader = XcodeMappingXMLReader(file: file)
        return try reader.read(data)
    }

    /// Reads a compiled `.cdm`: the keyed archive of an `NSMappingModel`.
    ///
    /// - Parameters:
    ///   - data: The archive's bytes.
    ///   - file: The name issues carry.
    /// - Throws: ``XcodeMappingModelError`` for a malformed archive, a root
    ///   that is not an `NSMappingModel`, a mapping of the wrong class or
    ///   without names.
    public func readCompiled(data: Data, file: String) throws(XcodeMappingModelError)
        -> XcodeMappingModel
    {
        try XcodeMappingArchiveReader(file: file).read(data)
    }
}

extension XcodeMappingModel.EntityMapping {
    /// The name Xcode gives a mapping that stores none (§3.1):
    /// `<Source>To<Destination>`, `<Destination>` for an add mapping,
    /// `<Source>` for a remove mapping; nil without either entity.
    public static func defaultName(source: String?, destination: String?) -> String? {
        switch (source, destination) {
        case (let source?, let destination?): source + "To" + destination
        case (nil, let destination?): destination
        case (let source?, nil): source
        case (nil, nil): nil
        }
    }
}
