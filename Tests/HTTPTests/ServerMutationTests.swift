import TestSupport
import Testing
@testable import HTTP

@Suite("Server mutation (seeded, live sockets)")
struct ServerMutationTests {
    @Test("300 mutated raw requests never get a 5xx other than 501/505, and the server still answers")
    func liveMutations() async throws {
        try await withTestServer({
            $0.requestDeadline = .milliseconds(500)
            $0.maxBodyBytes = 4096
        }, handler: { _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }) { _, port in
            var random = SplitMix64(seed: 0x5E4E_4000_0000_0300)
            var statuses: [Int: Int] = [:]
            for _ in 0..<300 {
                let client = try RawClient(port: port, timeoutSeconds: 3)
                try? await client.send(MutationCorpus.mutant(&random))
                client.finishSending()
                while let response = try? await client.readResponse() {
                    statuses[response.status, default: 0] += 1
                }
            }
            let serverErrors = statuses.keys.filter { $0 >= 500 && $0 != 501 && $0 != 505 }
            #expect(serverErrors.isEmpty, "statuses: \(statuses)")
            #expect(statuses[200, default: 0] > 0 && statuses[400, default: 0] > 0, "statuses: \(statuses)")
            let probe = try RawClient(port: port)
            #expect(try await probe.roundTrip("GET / HTTP/1.1\r\nHost: t\r\n\r\n").status == 200)
        }
    }
}
