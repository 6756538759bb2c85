import Foundation

// MARK: - Handing plists to Foundation

extension BinaryPropertyList {
    /// The place of the first set in a binary property list (`$` for the
    /// top object, then `.key` and `[index]` steps), or nil when it holds
    /// none or is not a binary plist this reader decodes.
    ///
    /// Foundation's `PropertyListSerialization` on Linux crashes (a null
    /// pointer in its bridging) on any binary plist holding a set, so a
    /// caller must not hand it such a file; what Core Data and Xcode write
    /// holds none.
    static func firstSet(in data: Data) -> String? {
        guard data.starts(with: Array("bplist".utf8)),
            let top = try? BinaryPropertyList.decode(data)
        else { return nil }
        // Iterative: the decoder bounds the depth, but nothing needs recursion.
        var pending: [(PlistObject, String)] = [(top, "$")]
        while let (object, path) = pending.popLast() {
            switch object {
            case .set: return path
            case .array(let elements):
                pending += elements.enumerated().reversed().map { ($1, "\(path)[\($0)]") }
            case .dictionary(let entries):
                pending += entries.sorted { $0.key > $1.key }.map { ($1, "\(path).\($0)") }
            default: break
            }
        }
        return nil
    }
}
