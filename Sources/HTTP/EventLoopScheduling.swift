import CLinux
import Glibc

/// How the kernel schedules the event-loop threads against the threads that do the requests' work.
///
/// Why batch is the default: an event loop wakes for almost every request (one arrives, it reads and parses it,
/// hands it to a handler task and sleeps again), and it finds both cores busy signing tokens. As a normal
/// thread its wake-up preempted a signing thread: on a loaded 2-core VM that was 2.2 context switches per
/// sign-up and a fifth of the CPU beside the signature went to switching. As `SCHED_BATCH` (same CPU share,
/// but a wake-up never preempts) the loop runs when a core comes free and then handles everything that
/// arrived meanwhile: 0.6 context switches per sign-up, and 4–11 % more sign-ups and refreshes per CPU-second
/// (bench/REPORT.md). Where a core is idle the loop runs at once, so latency below saturation is unchanged;
/// at saturation a request may wait up to a scheduler slice before it is read, behind work already running.
/// Only the loop threads are marked: the SQLite writer and readers marked too gained nothing for sign-ups and
/// refreshes and cost lookups 9 %. A thread created from a loop thread inherits the policy: none of ours is,
/// but Dispatch could start a worker thread there, which would then yield the same way.
/// The systemd unit allows the call: `@system-service` includes `sched_setscheduler`, and `RestrictRealtime`
/// refuses only real-time policies.
public enum EventLoopScheduling: String, Sendable, CaseIterable {
    /// `SCHED_BATCH`: the loop's wake-ups wait for the running thread's turn to end.
    case batch
    /// `SCHED_OTHER`, as every other thread: a loop woken by input may preempt the thread on its core.
    case normal

    /// The kernel's number for the policy.
    var policy: Int32 {
        switch self {
        case .batch: shim_sched_batch
        case .normal: SCHED_OTHER
        }
    }

    /// Applies the policy to the calling thread. A refusal (a seccomp filter that forbids
    /// `sched_setscheduler`) leaves the thread as it was: this is a performance setting, never a reason to fail.
    func applyToCurrentThread() {
        _ = shim_set_current_thread_policy(policy)
    }
}
