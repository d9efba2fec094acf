import Glibc

/// Milliseconds on the monotonic clock: cheap to read on every event, immune to wall-clock jumps.
enum MonotonicClock {
    static func nowMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
