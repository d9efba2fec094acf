import Foundation
import Glibc
import Synchronization

/// Waits for SIGTERM or SIGINT so `main` can start a graceful shutdown.
///
/// Mechanism: the self-pipe trick. `install()` (called first thing in `main`, before any other thread
/// exists) replaces the default action of both signals with a handler that writes the signal number into a
/// pipe; `waitForTermination()` reads the pipe on a thread of its own. A signal that arrives at any moment
/// after `install()` — even before anyone waits — stays in the pipe, so it is never lost (with `SIG_IGN`
/// plus a later-armed observer, a signal landing in between would be discarded and the process would not
/// stop). Every later signal is swallowed by the handler, so a second Ctrl-C does not cut the drain short.
public enum SignalWaiter {
    private static let installed = Mutex(false)

    /// Installs the handlers once; safe to call again.
    public static func install() {
        installed.withLock { done in
            guard !done else { return }
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { return }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            // The write end never blocks: if the pipe were full, dropping a signal is fine (one is enough).
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            signalPipeRead = fds[0]
            signalPipeWrite = fds[1]
            for signalNumber in [SIGTERM, SIGINT] {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = recordSignal
                action.sa_flags = SA_RESTART
                sigemptyset(&action.sa_mask)
                sigaction(signalNumber, &action, nil)
            }
            done = true
        }
    }

    /// Returns `SIGTERM` or `SIGINT`, whichever arrived first (also if it arrived before this call).
    public static func waitForTermination() async -> Int32 {
        install()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let thread = Thread {
                var byte: UInt8 = 0
                while true {
                    let count = read(signalPipeRead, &byte, 1)
                    if count == 1 { break }
                    if count < 0 && errno == EINTR { continue }
                    byte = UInt8(SIGTERM)
                    break
                }
                continuation.resume(returning: Int32(byte))
            }
            thread.name = "gatehouse-signals"
            thread.start()
        }
    }
}

// Plain globals read by the async-signal handler (a file descriptor load and a write(2) are signal-safe).
nonisolated(unsafe) private var signalPipeRead: Int32 = -1
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

private func recordSignal(_ signalNumber: Int32) {
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(signalPipeWrite, &byte, 1)
}
