import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Redirects are never followed; the default session keeps no cookies")
    struct RedirectTests {
        func configuration(_ url: URL) throws -> AuthConfiguration {
            var configuration = try ClientEnvironment.shared.configuration()
            configuration.gatewayURL = url
            return configuration
        }

        @Test("a 307 at the gateway URL is refused (invalidConfiguration), and the request is not sent where it points")
        func redirectRefused() async throws {
            let target = try await Recorder.start(status: 200)
            let front = try await Recorder.start(status: 307, body: "", redirectTo: target.url)
            let auth = try Auth(configuration: configuration(front.url))
            let error = await authError { try await auth.createUser(withEmail: Unique.email("redirect"), password: "redirect-pass-1") }
            #expect(error?.code == .invalidConfiguration && error?.httpStatus == 307, "\(String(describing: error))")
            #expect(error?.message.contains(target.url.absoluteString) == true)
            #expect(try await front.requests().count == 1)
            #expect(try await target.requests().isEmpty, "the password went on to the redirect's target")
            #expect(auth.currentUser == nil)
            try await front.stop()
            try await target.stop()
        }

        @Test("an answer that a transport got by following a redirect is refused: nobody is signed in")
        func followedRedirectRefused() async throws {
            let environment = try ClientEnvironment.shared
            let front = try await Recorder.start(status: 307, body: "", redirectTo: environment.main.url)
            var configuration = try configuration(front.url)
            // A session without the library's delegate follows the 307 to a real gateway, which answers.
            configuration.transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
            let auth = try Auth(configuration: configuration)
            let error = await authError { try await auth.signInAnonymously() }
            #expect(error?.code == .invalidConfiguration && error?.httpStatus == 200, "\(String(describing: error))")
            #expect(auth.currentUser == nil)
            try await front.stop()
        }

        @Test("the default session neither keeps a cookie a server sets nor sends it back")
        func noCookies() async throws {
            let refusal = #"{"error":{"code":400,"message":"OPERATION_NOT_ALLOWED","errors":[]}}"#
            let server = try await Recorder.start(status: 400, body: refusal, headers: ["Set-Cookie": "tracking=abc; Path=/"])
            let auth = try Auth(configuration: configuration(server.url))
            for _ in 0..<2 {
                #expect(await authError { try await auth.signInAnonymously() }?.code == .operationNotAllowed)
            }
            let received = try await server.requests()
            #expect(received.count == 2)
            #expect(received.allSatisfy { ($0["headers"] as? [String: String])?["cookie"] == nil }, "\(received)")
            #expect(HTTPCookieStorage.shared.cookies(for: server.url)?.isEmpty ?? true)
            try await server.stop()
        }
    }
}
