import Foundation

/// Hands full chunks of one entry to a second thread that compresses and
/// writes them, so that making an entry's bytes (JSON from a store) and
/// deflating them overlap on two cores.
///
/// Memory stays bounded: at most ``depth`` chunks wait, and the producer
/// blocks while they do. Chunks are swapped, not copied: the producer gives
/// its full buffer away and takes an empty one back.
final class ZipChunkPipeline: @unchecked Sendable {
    /// The most chunks waiting for the writer at once.
    let depth: Int
    private let output: (UnsafeRawBufferPointer) throws -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [[UInt8]] = []
    private var spare: [[UInt8]] = []
    private var failure: Error?
    private var closed = false
    private var done = false

    /// Starts the writer thread; `output` runs on it, one chunk at a time,
    /// in order.
    init(depth: Int = 3, output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.depth = depth
        self.output = output
        let thread = Thread { [self] in run() }
        thread.name = "strata.zip-writer"
        thread.start()
    }

    /// Queues `chunk` for the writer and leaves an empty buffer of the same
    /// capacity in its place; blocks while ``depth`` chunks wait.
    ///
    /// - Throws: The writer's failure, once it has one.
    func submit(_ chunk: inout [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= depth, failure == nil { condition.wait() }
        if let failure { throw failure }
        var empty = spare.popLast() ?? []
        if empty.capacity < chunk.capacity { empty.reserveCapacity(chunk.capacity) }
        swap(&empty, &chunk)
        waiting.append(empty)
        condition.broadcast()
    }

    /// Waits until every queued chunk is written and stops the thread.
    ///
    /// - Throws: The writer's failure, if it had one.
    func finish() throws {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while !done { condition.wait() }
        if let failure { throw failure }
    }

    /// Stops the thread without writing what still waits.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        waiting.removeAll()
        condition.broadcast()
        while !done { condition.wait() }
    }

    private func run() {
        condition.lock()
        while true {
            while waiting.isEmpty, !closed { condition.wait() }
            if waiting.isEmpty {
                done = true
                condition.broadcast()
                condition.unlock()
                return
            }
            var chunk = waiting.removeFirst()
            let failed = failure != nil
            condition.unlock()
            var error: Error?
            if !failed {
                do { try chunk.withUnsafeBytes { try output($0) } } catch let thrown { error = thrown }
            }
            chunk.removeAll(keepingCapacity: true)
            condition.lock()
            if let error, failure == nil { failure = error }
            if spare.count < depth { spare.append(chunk) }
            condition.broadcast()
        }
    }
}
