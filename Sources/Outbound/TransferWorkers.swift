import Dispatch
import Glibc
import Synchronization

/// A job handed from a Swift task to a worker thread.
struct TransferJob: Sendable {
    let request: OutboundRequest
    let cancellation: CancellationFlag
    let continuation: CheckedContinuation<OutboundResponse, any Error>
}

/// A bounded set of dedicated POSIX threads that run blocking `curl_easy_perform` calls.
///
/// The transfers block for up to their timeout, so they must never run on Swift's cooperative pool (it has
/// one thread per core; two slow providers would stall the whole gateway) nor on Dispatch's global queues
/// (which grow threads without bound under blocking work). Threads start lazily, up to `limit`, and each owns
/// one `EasyHandle` for its whole life, which keeps the non-Sendable `CURL*` confined to one thread.
final class TransferWorkers: Sendable {
    private struct State {
        var pending: [TransferJob] = []
        var head = 0
        var threads = 0
        var idle = 0
        var shuttingDown = false
    }

    private let limit: Int
    private let settings: TransferSettings
    private let state = Mutex(State())
    private let wakeUps = DispatchSemaphore(value: 0)

    init(limit: Int, settings: TransferSettings) {
        self.limit = max(1, limit)
        self.settings = settings
    }

    /// Queues a job, starting another thread if every existing one is busy and the limit allows it.
    func submit(_ job: TransferJob) {
        let startThread = state.withLock { state -> Bool in
            state.pending.append(job)
            let waiting = state.pending.count - state.head
            guard waiting > state.idle, state.threads < limit else { return false }
            state.threads += 1
            return true
        }
        if startThread && !spawnThread() {
            // With no thread at all, nothing would ever run the queue: fail what is waiting instead of hanging.
            let stranded = state.withLock { state -> [TransferJob] in
                state.threads -= 1
                guard state.threads == 0 else { return [] }
                defer { state.pending.removeAll(); state.head = 0 }
                return Array(state.pending[state.head...])
            }
            for job in stranded {
                job.continuation.resume(throwing: OutboundError.transport("could not start a transfer thread"))
            }
            if !stranded.isEmpty { return }
        }
        wakeUps.signal()
    }

    /// Lets every thread finish and exit once the queue is empty. Queued jobs still run.
    func shutDown() {
        let threads = state.withLock { state -> Int in
            state.shuttingDown = true
            return state.threads
        }
        for _ in 0..<threads { wakeUps.signal() }
    }

    /// The body of every worker thread.
    fileprivate func runWorker() {
        let handle = EasyHandle(settings: settings)
        while let job = nextJob() {
            let result = handle.map { $0.perform(job.request, cancellation: job.cancellation) }
                ?? .failure(OutboundError.transport("curl_easy_init failed"))
            job.continuation.resume(with: result)
        }
    }

    /// Blocks until a job is available; nil once shutting down with nothing left to do.
    private func nextJob() -> TransferJob? {
        while true {
            state.withLock { $0.idle += 1 }
            wakeUps.wait()
            let outcome = state.withLock { state -> (job: TransferJob?, exit: Bool) in
                state.idle -= 1
                if state.head < state.pending.count {
                    let job = state.pending[state.head]
                    state.head += 1
                    if state.head == state.pending.count {
                        state.pending.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    return (job, false)
                }
                if state.shuttingDown {
                    state.threads -= 1
                    return (nil, true)
                }
                return (nil, false)
            }
            if let job = outcome.job { return job }
            if outcome.exit { return nil }
        }
    }

    private func spawnThread() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, transferWorkerMain, context) == 0 else {
            Unmanaged<TransferWorkers>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

/// pthread entry point: a top-level function, so it is nonisolated and usable as a C function pointer.
private func transferWorkerMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    let workers = Unmanaged<TransferWorkers>.fromOpaque(context).takeRetainedValue()
    workers.runWorker()
    return nil
}
