import Foundation
import StrataCore

// MARK: - Handing plists to Foundation

extension BinaryPropertyList {
    /// Why Foundation's `PropertyListSerialization` must not be given
    /// `data`, or nil when it may (any plist that is not binary, and binary
    /// ones this reader decodes and finds no set in).
    ///
    /// Foundation on Linux crashes (a null pointer in its bridging) on any
    /// binary plist holding a set, and it reads damaged binary plists more
    /// leniently than this reader, so it can reach a set this reader never
    /// saw: a binary plist goes to Foundation only when this reader decodes
    /// it and finds no set. What Core Data and Xcode write holds none.
    ///
    /// - Returns: `holds a set at $.key[1]` (the place of the first set), or
    ///   `is a damaged binary property list: …` with this reader's error.
    static func foundationHazard(in data: Data) -> String? {
        guard data.starts(with: Array("bplist".utf8)) else { return nil }
        let top: RecordValue
        do {
            top = try BinaryPropertyList.decode(data)
        } catch let error as PropertyListError {
            return "is a damaged binary property list: \(error.message)"
        } catch {
            return "is a damaged binary property list: \(error)"
        }
        // Iterative: the decoder bounds the depth, but nothing needs recursion.
        var pending: [(RecordValue, String)] = [(top, "$")]
        while let (object, path) = pending.popLast() {
            switch object {
            case .set: return "holds a set at \(path)"
            case .array(let elements):
                pending += elements.enumerated().reversed().map { ($1.value, "\(path)[\($0)]") }
            case .dictionary(let fields):
                pending += fields.sorted { $0.key > $1.key }.map { ($0.value, "\(path).\($0.key)") }
            default: break
            }
        }
        return nil
    }
}
