import Foundation

/// Hands values from a producing thread to a consuming one, in order, with
/// at most ``capacity`` waiting: the producer blocks while the queue is
/// full, so memory stays bounded whatever the input's size. The one
/// hand-off between threads: bundle decoding (``BundleLoader``) and the zip
/// writer's deflating thread (``ZipChunkPipeline``) both use it.
///
/// The producer ends with ``finish(throwing:discardingWaiting:)``; the
/// consumer sees the end (or the producer's error) from ``next()``. A
/// consumer that gives up calls ``cancel()`` (or ``stop(throwing:)``), and
/// the producer's next ``push(_:)`` throws ``Cancelled`` (or that error).
package final class BoundedHandoff<Element>: @unchecked Sendable {
    /// Thrown to the producer once the consumer has cancelled.
    package struct Cancelled: Error {}

    /// The most values waiting at once.
    let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [Element] = []
    private var finished = false
    private var failure: Error?
    /// What the producer's pushes throw once the consumer has stopped.
    private var stopped: Error?

    package init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Queues `value`; blocks while ``capacity`` values wait.
    ///
    /// - Throws: ``Cancelled``, or the error the consumer stopped with,
    ///   once it has stopped.
    package func push(_ value: Element) throws {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity, stopped == nil { condition.wait() }
        if let stopped { throw stopped }
        waiting.append(value)
        condition.broadcast()
    }

    /// Ends the stream, with the producer's error if it failed. With
    /// `discardingWaiting`, what still waits is dropped rather than
    /// delivered.
    package func finish(throwing error: Error? = nil, discardingWaiting: Bool = false) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        if discardingWaiting { waiting.removeAll() }
        condition.broadcast()
    }

    /// The next value, or nil at the end; blocks until one is there.
    ///
    /// - Throws: The producer's error, after every value it queued.
    package func next() throws -> Element? {
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

    /// Stops the producer without waiting for it: its next push throws
    /// `error`; what still waits is dropped. ``next()`` then returns nil
    /// once the producer has finished.
    package func stop(throwing error: Error) {
        condition.lock()
        defer { condition.unlock() }
        if stopped == nil { stopped = error }
        waiting.removeAll()
        condition.broadcast()
    }

    /// Stops the producer (its next push throws) and waits until it has
    /// finished, dropping what still waits.
    package func cancel() {
        stop(throwing: Cancelled())
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
    }
}
