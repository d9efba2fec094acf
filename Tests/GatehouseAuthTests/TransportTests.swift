import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("The default transport: cancellation")
    struct TransportTests {
        @Test("a task cancelled before its request is made gives up at once, not when the server answers")
        func cancelledBeforeTheRequest() async throws {
            let slow = try await Recorder.start(status: 200, delay: 30)
            let started = Date()
            let send = Task {
                withUnsafeCurrentTask { $0?.cancel() }  // cancelled before the data task exists
                return try await URLSessionTransport().send(URLRequest(url: slow.url, timeoutInterval: 120))
            }
            let outcome = await send.result
            let seconds = Date().timeIntervalSince(started)
            #expect(seconds < 15, "the request ran \(seconds) s despite the cancellation")
            #expect((outcome.error as? URLError)?.code == .cancelled, "\(outcome)")
            try await slow.stop()
        }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
