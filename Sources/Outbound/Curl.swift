import CCurl

/// Process-wide libcurl set-up.
public enum Curl {
    /// Initialises libcurl (and the TLS library under it) once for the whole process.
    ///
    /// Call this at process start, before any threads are started. libcurl documents `curl_global_init` as not
    /// thread-safe on builds without `CURL_VERSION_THREADSAFE`: it initialises OpenSSL and other global state
    /// that a concurrently running thread could observe half-built. Calling it again is harmless: the work runs
    /// exactly once. `CurlHTTPClient.init` also calls it, as a safety net for code paths that forget.
    public static func globalInit() {
        _ = initialisation
    }

    /// Swift runs a static initialiser exactly once, under a lock, which makes `globalInit` idempotent.
    private static let initialisation: Int32 = Int32(curl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue)
}
