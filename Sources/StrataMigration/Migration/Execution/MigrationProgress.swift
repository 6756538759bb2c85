/// Where a running migration is: stage, statement and rows.
///
/// Reported after every statement of an in-place stage and every batch of a
/// copy stage, so a caller can draw real progress (work done of work known),
/// not a timer.
public struct MigrationProgress: Sendable {
    /// The stage's position, from 1.
    public var stage: Int
    /// The number of stages.
    public var stageCount: Int
    /// The stage's name (`1-3`).
    public var stageName: String
    /// What is being done (`rebuilding ZNOTE`, `mapping Note`, `checking`).
    public var activity: String
    /// Rows handled so far in this stage.
    public var rowsDone: Int64
    /// Rows the stage handles, as far as known before it ran.
    public var rowsTotal: Int64
}
