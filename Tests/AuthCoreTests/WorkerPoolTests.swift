import Dispatch
import Foundation
import Synchronization
import Testing
@testable import AuthCore

/// The pool's contract: every job runs exactly once, on one of its threads, oldest first, and `stop` lets queued
/// work finish.
@Suite("WorkerPool")
struct WorkerPoolTests {
    /// Blocks pool threads until opened, without occupying the cooperative pool.
    private final class Latch: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let entered = Atomic<Int>(0)

        /// Runs on a pool thread: counts itself in, then waits for `open`.
        func hold() {
            entered.add(1, ordering: .relaxed)
            semaphore.wait()
        }

        func open(for threads: Int) {
            for _ in 0..<threads { semaphore.signal() }
        }

        /// Waits (bounded at 10 s) until `count` threads are held.
        func waitUntilHolding(_ count: Int) async throws {
            for _ in 0..<2000 where entered.load(ordering: .relaxed) < count {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(entered.load(ordering: .relaxed) == count)
        }
    }

    /// A value shared with the pool's threads.
    private final class Shared<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func update(_ change: @Sendable (inout Value) -> Void) { value.withLock { change(&$0) } }
        var current: Value { value.withLock { $0 } }
    }

    @Test("results and errors come back to the caller, and the work runs on the pool's own threads")
    func runReturnsResultsAndErrors() async throws {
        let pool = WorkerPool(name: "test-results", threadCount: 2)
        defer { pool.stop() }
        #expect(try await pool.run { 6 * 7 } == 42)
        #expect(try await pool.run { WorkerPool.currentPoolName } == "test-results")
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await pool.run { () throws -> Int in throw Refused() } }
    }

    @Test("one thread runs queued jobs oldest first")
    func oneThreadRunsInOrder() async throws {
        let pool = WorkerPool(name: "test-order", threadCount: 1)
        defer { pool.stop() }
        let latch = Latch()
        pool.submit { latch.hold() }
        try await latch.waitUntilHolding(1)
        let order = Shared<[Int]>([])
        for index in 0..<50 { pool.submit { order.update { $0.append(index) } } }
        #expect(pool.queuedJobs == 50)
        latch.open(for: 1)
        _ = try await pool.run { 0 }
        #expect(order.current == Array(0..<50))
    }

    @Test("every thread runs at once when there is work for all of them")
    func threadsRunInParallel() async throws {
        let pool = WorkerPool(name: "test-parallel", threadCount: 4)
        defer { pool.stop() }
        let latch = Latch()
        for _ in 0..<4 { pool.submit { latch.hold() } }
        try await latch.waitUntilHolding(4)
        latch.open(for: 4)
    }

    @Test("many submitters at once: every job runs exactly once")
    func concurrentSubmittersLoseNothing() async throws {
        let pool = WorkerPool(name: "test-stress", threadCount: 3)
        defer { pool.stop() }
        let runs = Shared<[Int: Int]>([:])
        await withTaskGroup(of: Void.self) { group in
            for submitter in 0..<8 {
                group.addTask {
                    for index in 0..<2000 {
                        let job = submitter * 10_000 + index
                        _ = try? await pool.run { runs.update { $0[job, default: 0] += 1 } }
                    }
                }
            }
        }
        let counts = runs.current
        #expect(counts.count == 16_000)
        #expect(counts.values.allSatisfy { $0 == 1 })
    }

    @Test("stop lets queued work finish")
    func stopFinishesQueuedWork() async throws {
        let pool = WorkerPool(name: "test-stop", threadCount: 2)
        let latch = Latch()
        pool.submit { latch.hold() }
        try await latch.waitUntilHolding(1)
        let ran = Atomic<Int>(0)
        for _ in 0..<20 { pool.submit { ran.add(1, ordering: .relaxed) } }
        pool.stop()
        latch.open(for: 1)
        for _ in 0..<2000 where ran.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ran.load(ordering: .relaxed) == 20)
    }
}
