import Foundation
import Testing

@testable import Strata
@testable import StrataValues

/// Values cross from a producing thread to the consumer in order, at most
/// `capacity` waiting; the producer's error arrives after its values; a
/// cancel stops a producer blocked on a full queue.
struct BoundedHandoffTests {
    /// Runs `body` on a new thread.
    private static func spawn(_ body: @escaping @Sendable () -> Void) {
        Thread(block: body).start()
    }

    @Test func testValuesArriveInOrderThroughASmallQueue() throws {
        let handoff = BoundedHandoff<Int>(capacity: 2)
        Self.spawn {
            for value in 0..<1_000 { try? handoff.push(value) }
            handoff.finish()
        }
        var received: [Int] = []
        while let value = try handoff.next() { received.append(value) }
        #expect(received == Array(0..<1_000))
    }

    @Test func testTheProducersErrorComesAfterItsValues() {
        struct Failure: Error {}
        let handoff = BoundedHandoff<Int>(capacity: 4)
        Self.spawn {
            try? handoff.push(1)
            try? handoff.push(2)
            handoff.finish(throwing: Failure())
        }
        var received: [Int] = []
        #expect(throws: Failure.self) {
            while let value = try handoff.next() { received.append(value) }
        }
        #expect(received == [1, 2])
    }

    @Test func testCancelStopsAProducerWaitingOnAFullQueue() {
        let handoff = BoundedHandoff<Int>(capacity: 1)
        let outcome = Outcome()
        Self.spawn {
            do {
                for value in 0... { try handoff.push(value) }  // Fills the queue, then blocks.
            } catch {
                outcome.set(error is BoundedHandoff<Int>.Cancelled)
            }
            handoff.finish()
        }
        handoff.cancel()  // Returns once the producer has finished.
        #expect(outcome.value == true)
    }

    /// A flag set by the producer thread, read after `cancel()` returned.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Bool?
        var value: Bool? { lock.withLock { stored } }
        func set(_ value: Bool) { lock.withLock { stored = value } }
    }
}

/// The consumer's own failure reaches the producer, which then finishes.
struct BoundedHandoffStopTests {
    @Test func testAStoppedConsumersErrorIsWhatThePushThrows() throws {
        struct Refused: Error {}
        let handoff = BoundedHandoff<Int>(capacity: 4)
        try handoff.push(1)
        handoff.stop(throwing: Refused())
        #expect(throws: Refused.self) { try handoff.push(2) }
        handoff.finish()
        #expect(try handoff.next() == nil)
    }

    @Test func testAFinishThatDiscardsDropsWhatWaits() throws {
        let handoff = BoundedHandoff<Int>(capacity: 4)
        try handoff.push(1)
        handoff.finish(discardingWaiting: true)
        #expect(try handoff.next() == nil)
    }
}
