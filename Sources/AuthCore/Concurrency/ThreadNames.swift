import CLinux

/// Names the threads Gatehouse starts, so `top -H`, `perf` and `/proc/<pid>/task/*/comm` tell the SQLite writer,
/// the KDF workers and the event loops apart. (Foundation's `Thread.name` did not reach the kernel on Linux: every
/// thread showed as the process or a Dispatch queue.)
public enum ThreadNames {
    /// Sets the calling thread's kernel name to `name`; Linux keeps the first 15 bytes.
    public static func nameCurrentThread(_ name: String) {
        _ = shim_name_current_thread(name)
    }
}
