import StrataSchema

// MARK: - A version order that makes the chain absurd

extension XcodeModelReader {
    /// The fewest properties a version may lack, of those its neighbours
    /// both have, before its place in the order is doubted.
    static let unlikelyGapSize = 2

    /// Warnings naming each version that lacks several properties which the
    /// versions before and after it both have: a history where attributes
    /// vanish for one version and come back is almost always a wrong order
    /// (an unnumbered base sorted into the middle, say).
    static func unlikelyOrderWarnings(_ versions: [Model], folders: [String]) -> [XcodeModelIssue] {
        guard versions.count >= 3 else { return [] }
        func properties(_ model: Model) -> Set<String> {
            var names: Set<String> = []
            for entity in model.entities {
                names.insert(entity.name)
                for attribute in entity.attributes {
                    names.insert("\(entity.name).\(attribute.name)")
                }
                for relationship in entity.relationships {
                    names.insert("\(entity.name).\(relationship.name)")
                }
            }
            return names
        }
        let sets = versions.map(properties)
        var warnings: [XcodeModelIssue] = []
        for index in 1..<(versions.count - 1) {
            let gap = sets[index - 1].intersection(sets[index + 1]).subtracting(sets[index])
                .sorted()
            guard gap.count >= unlikelyGapSize, index < folders.count else { continue }
            let shown = gap.prefix(5).joined(separator: ", ") + (gap.count > 5 ? ", …" : "")
            warnings.append(
                XcodeModelIssue(
                    file: folders[index],
                    message: "version \(index + 1) lacks \(gap.count) properties that versions "
                        + "\(index) and \(index + 2) both have (\(shown)); is the version order "
                        + "right? Use --order to give it"))
        }
        return warnings
    }
}
