// TEMPORARY, never committed: stands in for predparse's files until they land.
import Foundation

public enum PredicateStringFolding {
    public static func fold(_ string: String, _ options: StringOptions) -> String {
        var s = string
        if options.contains(.diacriticInsensitive) {
            s = s.folding(options: .diacriticInsensitive, locale: nil)
        }
        if options.contains(.caseInsensitive) { s = s.lowercased() }
        return s
    }
    public static func like(_ string: String, pattern: String, options: StringOptions) -> Bool {
        false
    }
    public static func matches(_ string: String, pattern: String, options: StringOptions) -> Bool {
        false
    }
}
extension Predicate {
    public func check(entity: String, model: Model) throws {}
}
extension ManagedObject {
    func evaluate(_ predicate: Predicate) throws -> Bool { true }
}
