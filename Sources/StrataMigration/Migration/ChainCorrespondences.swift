import StrataSchema

/// The matches between each pair of adjacent versions of a chain, computed
/// once per run, and the matches of any span composed from them: planning
/// a long history (90 versions, a finding per step) stays linear in
/// versions × properties instead of recomputing every pair for each span.
struct ChainCorrespondences: Sendable {
    /// The chain's versions, oldest first.
    let versions: [Model]
    /// `steps[i]`: `versions[i]` → `versions[i + 1]`.
    private let steps: [SchemaCorrespondence]
    /// The index in ``versions`` of each version number.
    private let positions: [Int: Int]

    /// The matches of every adjacent pair of `chain`'s versions.
    init(_ chain: SchemaChain) {
        versions = chain.versions
        steps = zip(versions, versions.dropFirst()).map { SchemaCorrespondence(from: $0, to: $1) }
        positions = Dictionary(
            versions.enumerated().map { ($1.version, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The matches from version `from` to version `to` through every
    /// version between, filled from their direct matches
    /// (``SchemaCorrespondence/init(through:)``); nil for a version the
    /// chain lacks.
    func through(from: Int, to: Int) -> SchemaCorrespondence? {
        guard let start = positions[from], let end = positions[to], start <= end else {
            return nil
        }
        return SchemaCorrespondence(
            composing: steps[start..<end], from: versions[start], to: versions[end])
    }

    /// The matches from version `from` to `to` that a plan of `matching`
    /// uses: ``through(from:to:)`` for the chain, the direct matches of the
    /// two ends (Core Data's inferred mapping) for `coreData`.
    func matches(
        from: Int, to: Int, _ matching: MigrationPlan.Matching
    ) -> SchemaCorrespondence? {
        switch matching {
        case .chain: return through(from: from, to: to)
        case .coreData:
            guard let start = positions[from], let end = positions[to], start <= end else {
                return nil
            }
            return SchemaCorrespondence(from: versions[start], to: versions[end])
        }
    }

    /// The matches of adjacent versions `older` → the one after it.
    package func step(from older: Int) -> SchemaCorrespondence? {
        guard let start = positions[older], start < steps.count else { return nil }
        return steps[start]
    }

    /// For each version from `from` to `to`: the matches from `from` to it
    /// (`leading`) and from it to `to` (`trailing`), composed without
    /// filling — which pair of versions a change happens in. Linear in the
    /// span.
    func spans(from: Int, to: Int) -> (
        leading: [SchemaCorrespondence], trailing: [SchemaCorrespondence]
    ) {
        guard let start = positions[from], let end = positions[to], start <= end else {
            return ([], [])
        }
        var leading = [SchemaCorrespondence.identity(of: versions[start])]
        for index in start..<end {
            leading.append(steps[index].following(leading[leading.count - 1]))
        }
        var trailing = [SchemaCorrespondence.identity(of: versions[end])]
        for index in (start..<end).reversed() {
            trailing.append(trailing[trailing.count - 1].following(steps[index]))
        }
        return (leading, trailing.reversed())
    }
}
