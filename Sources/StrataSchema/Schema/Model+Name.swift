import Foundation

// MARK: - A model's name as a name

extension Model {
    /// Whether `name` can name a model's folder (`Schemas/<name>`) as it is:
    /// one path component, not `.` or `..`, no leading dot, no control
    /// characters, at most 255 bytes.
    ///
    /// A name read from a store or a bundle (`StrataModelName`, a manifest's
    /// model) is input: `../../tmp/evil` names no model, and must never
    /// become a path.
    ///
    /// ```swift
    /// assert(Model.isPlainName("Recipes"))
    /// assert(!Model.isPlainName("../../tmp/evil"))
    /// ```
    public static func isPlainName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix(".") else { return false }
        return !name.unicodeScalars.contains {
            $0 == "/" || $0 == "\\" || $0.properties.generalCategory == .control
        }
    }
}
