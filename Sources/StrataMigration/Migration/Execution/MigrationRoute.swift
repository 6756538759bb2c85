import Foundation
import StrataSchema

/// The stages that take a store from one version of a chain to another.
struct MigrationRoute {
    let stages: [MigrationStage]

    /// Splits `from…to` into stages: a version pair with a mapping or a
    /// custom step is a stage alone, runs of other pairs are fused.
    ///
    /// Mapping files may span several versions and several may start at
    /// one version (Core Data's mapping models 1.0→2.0 beside 1.0→1.1). As
    /// Core Data picks a mapping model, the route takes the file from the
    /// store's version straight to the target when there is one; otherwise,
    /// from each version, the file that reaches farthest without passing the
    /// target or the version pair of a custom step. Pairs no file covers are
    /// planned from the schemas alone.
    ///
    /// - Parameters:
    ///   - mappings: Mapping files by the version they start from.
    ///   - customSteps: Swift steps by the version they start from.
    ///   - correspondences: The chain's adjacent matches, computed once.
    ///   - matching: How each stage's ends are matched.
    init(
        chain: SchemaChain, from: Int, to: Int,
        mappings: [Int: [any MigrationMappingApplying]],
        customSteps: [Int: any CustomMigrationStep],
        policySteps: [String: any CustomMigrationStep] = [:],
        correspondences: ChainCorrespondences, matching: MigrationPlan.Matching
    ) throws(MigrationError) {
        func plan(_ from: Int, _ to: Int) throws(MigrationError) -> MigrationPlan {
            try MigrationPlan(
                chain: chain, from: from, to: to, correspondences: correspondences,
                matching: matching)
        }
        let versions = chain.versions.map(\.version).filter { $0 >= from && $0 <= to }
        let next = Dictionary(
            zip(versions, versions.dropFirst()).map { ($0, $1) }, uniquingKeysWith: { a, _ in a })
        /// The file a stage from `older` uses: the one reaching farthest
        /// within the route, stepping over no custom step.
        func file(from older: Int) throws(MigrationError) -> (any MigrationMappingApplying)? {
            guard let newer = next[older] else { return nil }
            let candidates = mappings[older] ?? []
            let fitting = candidates.filter { mapping in
                let end = mapping.endVersion ?? newer
                guard end <= to, end == newer || customSteps[older] == nil else { return false }
                return !customSteps.keys.contains { $0 > older && $0 < end }
            }
            if let chosen = fitting.max(by: { ($0.endVersion ?? newer) < ($1.endVersion ?? newer) })
            {
                return chosen
            }
            // Every file from here overshoots the route or steps over a
            // custom step: planning the pair without it could lose what the
            // file carries, so the run stops.
            if let span = candidates.first {
                let end = span.endVersion ?? newer
                let step = customSteps.keys.filter { $0 >= older && $0 < end }.min()
                throw MigrationError(
                    .invalidMapping,
                    message: "\(span.origin) spans versions \(older) to \(end), but "
                        + (end > to
                            ? "the migration ends at version \(to)"
                            : "a custom step runs from version \(step ?? older)")
                        + "; nothing was changed")
            }
            return nil
        }
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
        var older = versions.first ?? from
        while let newer = next[older] {
            let mapping = try file(from: older)
            var custom = customSteps[older]
            if let mapping, !mapping.policies.isEmpty {
                let steps = try Self.policySteps(for: mapping, registered: policySteps)
                custom = StepSequence(steps: [custom].compactMap { $0 } + steps)
            }
            guard mapping != nil || custom != nil else {
                older = newer
                continue
            }
            try closeRun(at: older)
            let end = mapping?.endVersion ?? newer
            stages.append(
                MigrationStage(
                    from: older, to: end, plan: try plan(older, end), mapping: mapping,
                    customStep: custom))
            runStart = end
            older = end
        }
        try closeRun(at: versions.last ?? to)
        self.stages = stages
    }

    /// The Swift steps standing in for the policies `mapping` names, in
    /// rule order.
    ///
    /// - Throws: ``MigrationError`` (`invalidMapping`) naming the first
    ///   policy without a step: its class, the entity mapping, the file, and
    ///   what to write instead.
    private static func policySteps(
        for mapping: any MigrationMappingApplying,
        registered: [String: any CustomMigrationStep]
    ) throws(MigrationError) -> [any CustomMigrationStep] {
        var steps: [any CustomMigrationStep] = []
        var seen: Set<String> = []
        for policy in mapping.policies where seen.insert(policy.className).inserted {
            guard let step = registered[policy.className] else {
                let name =
                    policy.entityMapping.map {
                        "entity mapping \($0) (the rule for \(policy.entity))"
                    }
                    ?? "the rule for \(policy.entity)"
                throw MigrationError(
                    .invalidMapping,
                    message: "\(mapping.origin): \(name) names the custom migration policy "
                        + "\(policy.className), app code Strata cannot run, and no Swift step "
                        + "stands in for it; write what the policy does as expressions in the "
                        + "rule for \(policy.entity) and remove its \"policy\", or register a "
                        + "Swift step under that name (MigrationOptions.policySteps[\""
                        + "\(policy.className)\"]); nothing was changed")
            }
            steps.append(step)
        }
        return steps
    }
}

/// Several Swift steps run as one stage's step, in order.
struct StepSequence: CustomMigrationStep {
    let steps: [any CustomMigrationStep]

    func migrate(_ work: CustomStepWork) throws {
        for step in steps { try step.migrate(work) }
    }

    func resolves(_ step: MigrationStep) -> Bool {
        steps.contains { $0.resolves(step) }
    }
}
