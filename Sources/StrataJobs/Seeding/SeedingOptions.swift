import Foundation

/// How ``Seeder`` (and ``StoreContainer``) seed a store.
///
/// ```swift
/// var options = SeedingOptions()
/// options.lockTimeout = 5
/// options.afterStep = { step in print(step.number, step.name) }
/// ```
public struct SeedingOptions {
    /// How long to wait, in seconds, while another process seeds or
    /// migrates the store; 0 refuses at once. One minute by default.
    public var lockTimeout: TimeInterval = 60
    /// Called once when seeding starts waiting for another process.
    public var waitingForLock: () -> Void = {}
    /// Called after each step of a seeding, in order, numbered from 1: a
    /// progress report, and the place where crash tests stop a process.
    public var afterStep: ((SeedingStep) -> Void)?

    /// Options with every default.
    public init() {}
}

/// One step of a seeding, reported to ``SeedingOptions/afterStep``.
public struct SeedingStep: Hashable, Sendable {
    /// The step's number in this seeding, from 1.
    public var number: Int
    /// What was just done: `locked`, `copied`, `migrating`, `imported`,
    /// `recorded`, `linked`, …
    public var name: String
}
