import Dispatch
import Glibc
import Synchronization

/// Waits for SIGTERM or SIGINT so `main` can start a graceful shutdown.
///
/// Mechanism: the default action of both signals is replaced by "ignore" (`SIG_IGN`), so a signal can never
/// kill the process whichever thread it lands on, and libdispatch signal sources observe them (on Linux
/// libdispatch watches them through its own signalfd-based event loop). The first one received resumes
/// the caller; the signals then stay ignored, so a second Ctrl-C does not cut the drain short.
public enum SignalWaiter {
    /// Returns `SIGTERM` or `SIGINT`, whichever arrives first.
    public static func waitForTermination() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let resumed = Mutex(false)
            let queue = DispatchQueue(label: "gatehouse.signals")
            let box = SourceBox()
            queue.sync {
                for signalNumber in [SIGTERM, SIGINT] {
                    signal(signalNumber, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                    source.setEventHandler {
                        let first = resumed.withLock { done in
                            defer { done = true }
                            return !done
                        }
                        guard first else { return }
                        box.cancelAll()
                        continuation.resume(returning: signalNumber)
                    }
                    box.sources.append(source)
                    source.resume()
                }
            }
        }
    }

    /// Keeps the sources alive until one fires; only touched on the serial signal queue.
    private final class SourceBox: @unchecked Sendable {
        var sources: [any DispatchSourceSignal] = []

        func cancelAll() {
            for source in sources { source.cancel() }
            sources.removeAll()
        }
    }
}
