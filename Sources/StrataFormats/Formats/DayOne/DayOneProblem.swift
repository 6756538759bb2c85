/// Something wrong with one entry or one file of a Day One export that does
/// not stop the import of the rest (unless the policy is
/// ``ImportOptions/ErrorPolicy/abort``).
///
/// ```swift
/// for problem in summary.problems {
///     print(problem.uuid ?? problem.file ?? "", problem.message)
/// }
/// ```
public struct DayOneProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// An entry whose values break the Diary's rules (a uuid that is not
        /// 32 hexadecimal digits, text over the length limit, a date that
        /// does not parse, a uuid seen before in the export); it is skipped.
        case invalidEntry
        /// A medium the entry lists whose file is not in the zip; the entry
        /// is imported with the medium's details but without its bytes.
        case missingMedium
        /// A medium file whose MD5 differs from the name the entry gives;
        /// the medium is left out (its entry is imported).
        case mediumChecksumMismatch
        /// A file in the zip that no entry lists; it is left out.
        case unreferencedMedium
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The uuid of the entry, when the problem belongs to one.
    public var uuid: String?
    /// The file in the zip the problem is about, when there is one.
    public var file: String?
    /// Where the entry is in the JSON (`Journal.json (at entries[3])`).
    public var place: String?
    /// What is wrong, in plain words.
    public var message: String

    /// Creates a problem.
    public init(
        _ kind: Kind, uuid: String? = nil, file: String? = nil, place: String? = nil,
        message: String
    ) {
        self.kind = kind
        self.uuid = uuid
        self.file = file
        self.place = place
        self.message = message
    }

    /// `entry <uuid>: message` or `<file>: message`.
    public var description: String {
        var subject: [String] = []
        if let uuid { subject.append("entry \(uuid)") }
        if let file { subject.append(file) }
        if subject.isEmpty, let place { subject.append(place) }
        return subject.isEmpty ? message : subject.joined(separator: ", ") + ": " + message
    }
}
