import Foundation

/// A fixed number of threads working through numbered pieces of work, each
/// thread taking the next number as soon as it is free: `strata migrate
/// --jobs N` migrates N stores at once.
///
/// Threads of this process rather than child processes: a store's run
/// shares nothing mutable with another's (each has its own ``Migrator``,
/// SQLite connections, lock and files; SQLite is opened with one connection
/// per thread), a thread costs nothing to start where a process would load
/// the schemas again for every store, and the results meet in one writer
/// without a protocol between processes.
enum WorkerPool {
    /// Runs `worker` on `width` threads (no more than there are pieces) and
    /// returns when all have returned.
    ///
    /// - Parameters:
    ///   - width: How many pieces are worked on at once; at least 1.
    ///   - count: How many pieces there are, numbered from 0.
    ///   - worker: One thread's work: it calls `next` for the number of its
    ///     next piece until `next` gives nil, and may keep what it loaded
    ///     for one piece for the next.
    static func run(
        width: Int, count: Int, _ worker: @escaping @Sendable (_ next: () -> Int?) -> Void
    ) {
        let counter = Counter(limit: count)
        let group = DispatchGroup()
        for number in 0..<min(max(width, 1), count) {
            group.enter()
            let thread = Thread {
                worker(counter.next)
                group.leave()
            }
            thread.name = "strata.worker-\(number + 1)"
            // The main thread's stack: schema and expression parsers recurse.
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    /// The numbers handed out so far.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private let limit: Int
        private var taken = 0

        init(limit: Int) { self.limit = limit }

        func next() -> Int? {
            lock.withLock {
                guard taken < limit else { return nil }
                taken += 1
                return taken - 1
            }
        }
    }
}
