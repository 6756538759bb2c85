/// How far an export, an archive or an unarchive is: the objects of one
/// entity done so far, and how many there are when that is known cheaply.
///
/// ```swift
/// try exporter.run(to: "penguins.csv", format: .csv) { progress in
///     print("\(progress.objects) of \(progress.total ?? 0) \(progress.entity)")
/// }
/// ```
public struct ExportProgress: Hashable, Sendable {
    /// Reports come every this many objects, and at the end of each entity:
    /// a report per object would cost more than the object.
    public static let interval = 4096

    /// The entity whose objects are being written (or read).
    public var entity: String
    /// Objects of that entity done so far.
    public var objects: Int
    /// How many objects that entity has in all; nil when counting them would
    /// cost a pass of its own (an export with a predicate).
    public var total: Int?
    /// The entity's place among the run's entities, from 1.
    public var step: Int
    /// How many entities the run writes (1 for an export).
    public var steps: Int

    /// A report of `objects` of `entity` done, of `total`.
    public init(entity: String, objects: Int, total: Int?, step: Int = 1, steps: Int = 1) {
        self.entity = entity
        self.objects = objects
        self.total = total
        self.step = step
        self.steps = steps
    }
}
