import Foundation
import Strata

/// Inserts contacts through the object context, saving every batch.
enum ContextInsertWorker {
    static func run(_ options: Worker.Options) throws {
        throw BenchError(.setup, "the object context is not on main yet")
    }
}
