import Foundation

/// Hands full chunks of one entry to a second thread that compresses and
/// writes them, so that making an entry's bytes (JSON from a store) and
/// deflating them overlap on two cores.
///
/// Memory stays bounded: the chunks cross a ``BoundedHandoff`` of ``depth``
/// places, and the producer blocks while they are taken. Chunks are
/// swapped, not copied: the producer gives its full buffer away and takes
/// an empty one back.
final class ZipChunkPipeline: @unchecked Sendable {
    /// The most chunks waiting for the writer at once.
    let depth: Int
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private let handoff: BoundedHandoff<[UInt8]>
    /// Emptied chunks, back from the writer thread for reuse.
    private let spareLock = NSLock()
    private var spare: [[UInt8]] = []
    /// Signalled once when the writer thread ends.
    private let ended = DispatchSemaphore(value: 0)
    /// Set by the producer's thread once it has seen ``ended``.
    private var joined = false
    /// The writer's failure: set on its thread before ``ended``.
    private var failure: Error?

    /// Starts the writer thread; `output` runs on it, one chunk at a time,
    /// in order.
    init(depth: Int = 3, output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.depth = depth
        self.output = output
        handoff = BoundedHandoff(capacity: depth)
        let thread = Thread { [self] in run() }
        thread.name = "strata.zip-writer"
        thread.start()
    }

    /// Queues `chunk` for the writer and leaves an empty buffer of the same
    /// capacity in its place; blocks while ``depth`` chunks wait.
    ///
    /// - Throws: The writer's failure, once it has one.
    func submit(_ chunk: inout [UInt8]) throws {
        var empty = spareLock.withLock { spare.popLast() } ?? []
        if empty.capacity < chunk.capacity { empty.reserveCapacity(chunk.capacity) }
        swap(&empty, &chunk)
        try handoff.push(empty)
    }

    /// Waits until every queued chunk is written and stops the thread.
    ///
    /// - Throws: The writer's failure, if it had one.
    func finish() throws {
        handoff.finish()
        join()
        if let failure { throw failure }
    }

    /// Stops the thread without writing what still waits.
    func cancel() {
        handoff.finish(discardingWaiting: true)
        join()
    }

    private func join() {
        guard !joined else { return }
        ended.wait()
        joined = true
    }

    private func run() {
        do {
            while var chunk = try handoff.next() {
                try chunk.withUnsafeBytes { try output($0) }
                chunk.removeAll(keepingCapacity: true)
                spareLock.withLock { if spare.count < depth { spare.append(chunk) } }
            }
        } catch {
            // The producer never finishes with an error: this is the
            // writer's. The producer's next submit throws it; what waits
            // is dropped, and the thread ends when the producer finishes.
            failure = error
            handoff.stop(throwing: error)
            while (try? handoff.next()) != nil {}
        }
        ended.signal()
    }
}
