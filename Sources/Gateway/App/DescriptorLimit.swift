import Glibc

/// The process's open-file limit (RLIMIT_NOFILE). Every connection is a descriptor, and the soft limit is
/// often 1024 while `http.maxConnections` defaults to 10,000: at the soft limit accept fails (EMFILE) and
/// new clients wait in the kernel's backlog however few of them are real. So the gateway raises the soft
/// limit to the hard limit when it starts, and warns when even that is below what the cap needs.
enum DescriptorLimit {
    /// Descriptors needed besides connections: database and WAL files, listeners, epoll and eventfds, mail.
    static let reserve = 128
    /// Used instead of an unlimited hard limit, which the kernel never grants as a soft limit.
    static let ceilingWhenUnlimited: rlim_t = 1 << 20
    /// unlimited (all bits set on Linux); the C macro does not import into Swift.
    static let unlimited = rlim_t.max

    /// Raises the soft limit as far as the hard limit allows; returns the soft limit in force afterwards.
    static func raiseToHardLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return -1 }
        let target = limits.rlim_max == unlimited ? ceilingWhenUnlimited : limits.rlim_max
        if limits.rlim_cur != unlimited && limits.rlim_cur < target {
            var raised = limits
            raised.rlim_cur = target
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur == unlimited ? Int.max : Int(limits.rlim_cur)
    }

    /// Whether `limit` descriptors are enough for `maxConnections` connections and the reserve.
    static func suffices(_ limit: Int, maxConnections: Int) -> Bool {
        limit >= maxConnections + reserve
    }
}
