import COpenSSL

/// Process-wide OpenSSL set-up.
public enum OpenSSLProcess {
    /// Initialises OpenSSL without its exit-time clean-up. Call it first thing in `main`, before libcurl's
    /// global init (which initialises OpenSSL too) and before any thread starts.
    ///
    /// By default OpenSSL registers `OPENSSL_cleanup` with `atexit`, and that handler frees the library's
    /// global state (providers, method stores, thread-local keys) while the process is exiting. The gateway
    /// exits with threads still alive (KDF and database workers, Swift's cooperative pool, libcurl workers)
    /// that may be signing, hashing or freeing a key at that moment; they then touch freed memory, and a
    /// clean stop ends in "double free or corruption" or a segfault instead of exit status 0. The kernel
    /// reclaims the memory anyway, so skipping the clean-up costs nothing. Only the first initialisation
    /// decides, which is why this must run before anything else touches OpenSSL.
    public static func initialize() {
        _ = initialisation
    }

    /// Swift runs a static initialiser exactly once, under a lock, which makes `initialize` idempotent.
    private static let initialisation: Int32 = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
}
