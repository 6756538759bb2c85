import Foundation
import StrataSchema

/// The stages that take a store from one version of a chain to another.
struct MigrationRoute {
    let stages: [MigrationStage]

    /// Splits `from…to` into stages: a version pair with a mapping or a
    /// custom step is a stage alone, runs of other pairs are fused.
    ///
    /// - Parameters:
    ///   - mappings: Mapping files by the version they start from.
    ///   - customSteps: Swift steps by the version they start from.
    ///   - correspondences: The chain's adjacent matches, computed once.
    ///   - matching: How each stage's ends are matched.
    init(
        chain: SchemaChain, from: Int, to: Int,
        mappings: [Int: any MigrationMappingApplying],
        customSteps: [Int: any CustomMigrationStep],
        correspondences: ChainCorrespondences, matching: MigrationPlan.Matching
    ) throws(MigrationError) {
        func plan(_ from: Int, _ to: Int) throws(MigrationError) -> MigrationPlan {
            try MigrationPlan(
                chain: chain, from: from, to: to, correspondences: correspondences,
                matching: matching)
        }
        let versions = chain.versions.map(\.version).filter { $0 >= from && $0 <= to }
        var stages: [MigrationStage] = []
        var runStart = versions.first ?? from
        func closeRun(at end: Int) throws(MigrationError) {
            guard end > runStart else { return }
            stages.append(
                MigrationStage(
                    from: runStart, to: end,
                    plan: try plan(runStart, end),
                    mapping: nil, customStep: nil))
        }
        var spanEnd = from
        for (older, newer) in zip(versions, versions.dropFirst()) {
            guard older >= spanEnd else { continue }  // Inside a spanning mapping.
            let mapping = mappings[older]
            let custom = customSteps[older]
            guard mapping != nil || custom != nil else { continue }
            try closeRun(at: older)
            // A mapping spanning several versions makes them one stage; it
            // must end within the route.
            if let mapping, let end = mapping.endVersion, end > newer {
                guard end <= to, custom == nil else {
                    throw MigrationError(
                        .invalidMapping,
                        message: "\(mapping.origin) spans versions \(older) to \(end), but "
                            + (custom != nil
                                ? "a custom step runs from version \(older)"
                                : "the migration ends at version \(to)")
                            + "; nothing was changed")
                }
                stages.append(
                    MigrationStage(
                        from: older, to: end,
                        plan: try plan(older, end),
                        mapping: mapping, customStep: nil))
                runStart = end
                spanEnd = end
                continue
            }
            stages.append(
                MigrationStage(
                    from: older, to: newer,
                    plan: try plan(older, newer),
                    mapping: mapping, customStep: custom))
            runStart = newer
        }
        try closeRun(at: versions.last ?? to)
        self.stages = stages
    }
}
