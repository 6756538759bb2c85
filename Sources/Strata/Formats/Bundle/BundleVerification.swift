import Foundation

/// A bundle's checksums verified on a second thread while the store is
/// built in its hidden scratch folder: the two take about as long as each
/// other, and nothing reaches the target until both are done.
final class BundleVerification: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var outcome: Result<Void, Error>?

    /// Starts verifying `unarchiver`'s files but those in `skipped`
    /// (``BundleUnarchiver/verify(skipping:)``).
    init(_ unarchiver: BundleUnarchiver, skipping skipped: Set<String>) {
        let box = UncheckedUnarchiver(unarchiver)
        let thread = Thread { [self] in
            let result = Result { try box.unarchiver.verify(skipping: skipped) }
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "strata.bundle-verification"
        thread.start()
    }

    /// Waits for the verification to end.
    ///
    /// - Throws: Its ``BundleError`` (`checksumMismatch`, or the zip's own
    ///   errors) when a file is damaged.
    func wait() throws {
        condition.lock()
        while outcome == nil { condition.wait() }
        let result = outcome
        condition.unlock()
        try result?.get()
    }
}

/// The unarchiver handed to the verifying thread: the main thread does not
/// touch its verification state until ``BundleVerification/wait()``.
private struct UncheckedUnarchiver: @unchecked Sendable {
    let unarchiver: BundleUnarchiver
    init(_ unarchiver: BundleUnarchiver) { self.unarchiver = unarchiver }
}
