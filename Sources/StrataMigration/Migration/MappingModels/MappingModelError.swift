/// A Core Data mapping model that cannot be converted: every problem found,
/// each naming the mapping model's file, the entity mapping and property it
/// is about, where it is in the file, and what was expected.
///
/// ```
/// Moody 2-Moody 3.xcmappingmodel: entity mapping MoodToMood (object z107), attribute mapping
///   colors (object z112): $source.colours: Mood of version 2 has no property 'colours'
/// ```
public struct MappingModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One problem.
    public struct Issue: Hashable, Sendable, CustomStringConvertible {
        /// The mapping model's file, as the caller named it.
        public var file: String
        /// Where in the file: the entity mapping and property mapping with
        /// their places (`entity mapping MoodToMood (object z107)`); empty
        /// for the file as a whole.
        public var place: String
        /// What is wrong and what was expected.
        public var message: String

        /// Creates an issue.
        public init(file: String, place: String = "", message: String) {
            self.file = file
            self.place = place
            self.message = message
        }

        /// `file: place: message`.
        public var description: String {
            place.isEmpty ? "\(file): \(message)" : "\(file): \(place): \(message)"
        }
    }

    /// The problems, in the order of the file's entity mappings.
    public var issues: [Issue]

    /// An error with these problems.
    public init(issues: [Issue]) {
        self.issues = issues
    }

    /// An error with one problem.
    public init(file: String, place: String = "", message: String) {
        self.issues = [Issue(file: file, place: place, message: message)]
    }

    /// One problem per line.
    public var description: String {
        issues.map(\.description).joined(separator: "\n")
    }
}
