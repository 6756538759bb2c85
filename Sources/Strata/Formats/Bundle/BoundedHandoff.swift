import Foundation

/// Hands values from a producing thread to a consuming one, in order, with
/// at most ``capacity`` waiting: the producer blocks while the queue is
/// full, so memory stays bounded whatever the input's size.
///
/// The producer ends with ``finish(throwing:)``; the consumer sees the end
/// (or the producer's error) from ``next()``. A consumer that gives up
/// calls ``cancel()``, and the producer's next ``push(_:)`` throws
/// ``Cancelled``.
final class BoundedHandoff<Element>: @unchecked Sendable {
    /// Thrown to the producer once the consumer has cancelled.
    struct Cancelled: Error {}

    /// The most values waiting at once.
    let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [Element] = []
    private var finished = false
    private var failure: Error?
    private var cancelled = false

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Queues `value`; blocks while ``capacity`` values wait.
    ///
    /// - Throws: ``Cancelled`` once the consumer has cancelled.
    func push(_ value: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity, !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        waiting.append(value)
        condition.broadcast()
    }

    /// Ends the stream, with the producer's error if it failed.
    func finish(throwing error: Error? = nil) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        condition.broadcast()
    }

    /// The next value, or nil at the end; blocks until one is there.
    ///
    /// - Throws: The producer's error, after every value it queued.
    func next() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty, !finished { condition.wait() }
        if !waiting.isEmpty {
            condition.broadcast()
            return waiting.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer (its next push throws) and waits until it has
    /// finished, dropping what still waits.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        waiting.removeAll()
        condition.broadcast()
        while !finished { condition.wait() }
    }
}
