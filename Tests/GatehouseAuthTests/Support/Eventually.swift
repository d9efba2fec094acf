import Foundation

/// Waits (polling) until `condition` holds; the deadline only catches hangs.
func eventually(_ what: String, timeout: TimeInterval = 120, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else { throw TestSetupError("waited \(timeout) s for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
