import Foundation
import StrataContext
import StrataQuery

import struct StrataContext.SortDescriptor

/// What an export writes: which objects (entity, predicate, order, limit),
/// which fields, and how binaries and relationships are written.
///
/// ```swift
/// var options = ExportOptions(entity: "Recipe")
/// options.predicate = try FetchPredicate("prepTime < 30")
/// options.sortDescriptors = [SortDescriptor("name")]
/// options.nested = ["ingredients"]
/// ```
public struct ExportOptions: Sendable {
    /// How binary (and transformable) values are written.
    public enum BinaryOutput: Hashable, Sendable {
        /// As base64 text (plist `<data>`), which the importer reads back.
        case base64
        /// As files named by their SHA-256 and the extension their content
        /// shows (`<sha256>.jpg`) in this folder, each content once; the
        /// field holds the file's path: relative to the output's folder when
        /// the media folder is inside it (so the output imports again as it
        /// is), else relative to the media folder (import with `--media-dir`).
        case files(URL)
    }

    /// The entity whose objects are written.
    public var entity: String
    /// The condition objects must meet; nil for every object.
    public var predicate: FetchPredicate?
    /// Sort keys, most significant first; by primary key after them.
    public var sortDescriptors: [SortDescriptor] = []
    /// At most this many objects; 0 means no limit.
    public var limit = 0
    /// Whether objects of subentities are written too (with the entity's
    /// fields).
    public var includesSubentities = true
    /// The fields to write, in order: attributes, and relationships (as the
    /// ids of the related objects, `Entity/p<pk>`); nil writes every stored
    /// attribute, in the schema's order, and the relationships of
    /// ``nested``.
    public var fields: [String]?
    /// Relationships written as the related objects themselves, nested in
    /// order (a to-many as an array of dicts, a to-one as a dict) with their
    /// attributes: the shape the plist and JSON importers read back.
    public var nested: [String] = []
    /// Whether each record starts with an `_id` field, `Entity/p<pk>`.
    public var includesIDs = false
    /// How binary values are written.
    public var binaries: BinaryOutput = .base64
    /// The field written as the body of a txt block; nil takes an attribute
    /// named `body`, `text` or `notes` when the entity has one.
    public var bodyField: String?
    /// The byte between the fields of txt lines (`;`, `|`, a tab…); nil
    /// writes each object's one field as the whole line.
    public var delimiter: UInt8?
    /// The field written as the title line of txt files; nil takes an
    /// attribute named `title`, `name` or `subject` among the fields. The
    /// txt-files importer reads it back as `title` (import with
    /// `--map title=<field>` when it has another name).
    public var titleField: String?
    /// Whether an existing output file is replaced (atomically); by
    /// default an existing file is an error.
    public var replacesExisting = false
    /// Binary attributes of which the query reads only the first bytes
    /// (``ExportQuery/prefixLength``); their values are read in pieces by
    /// the caller (a bundle's media).
    var prefixOnly: Set<String> = []

    /// Options for every object of `entity`, every attribute, binaries as
    /// base64.
    public init(entity: String) {
        self.entity = entity
    }
}
