import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Sessions: ID tokens refreshed before expiry and on demand, across expiry, and ended by the gateway")
    struct SessionTests {
        @Test("across a real expiry: the gateway refuses the old ID token, the library has refreshed before using it")
        func refreshAcrossExpiry() async throws {
            let environment = try ClientEnvironment.shared
            var configuration = environment.configuration(.short)
            let transport = ControlledTransport()
            configuration.transport = transport
            configuration.tokenRefreshMargin = 1
            let auth = try Auth(configuration: configuration)
            let user = try await auth.signInAnonymously().user
            let first = try await user.getIDTokenResult()
            #expect(first.expirationDate.timeIntervalSince(first.issuedAtDate) == ClientEnvironment.shortTokenLifetime)
            let refreshesBefore = transport.sent(.token)

            // (That a token is reused while it is fresh is checked with an injected clock below: with 8-second tokens a
            // loaded machine could make any "still fresh" check here fail.)
            try await Task.sleep(until: .now + .seconds(ClientEnvironment.shortTokenLifetime + 1.5), clock: .continuous)
            let refused = try await environment.api(.short).lookup(idToken: first.token)
            #expect(refused.status == 400 && refused.errorMessage.hasPrefix("TOKEN_EXPIRED"))
            // The stored token has expired: reload must renew it first, or the gateway would refuse the lookup.
            try await user.reload()
            #expect(transport.sent(.token) > refreshesBefore)
            let second = try await user.getIDTokenResult()
            #expect(second.token != first.token && second.expirationDate > Date())
            #expect(try await environment.api(.short).lookup(idToken: second.token).status == 200)
        }

        @Test("a token within the refresh margin is refreshed before it expires (an injected clock), once for concurrent callers")
        func refreshBeforeExpiry() async throws {
            let environment = try ClientEnvironment.shared
            let offset = Locked<TimeInterval>(0)
            let transport = ControlledTransport()
            var configuration = environment.configuration()
            configuration.clock = { Date().addingTimeInterval(offset.current) }
            configuration.transport = transport
            let user = try await Auth(configuration: configuration).signInAnonymously().user
            let first = try await user.getIDToken()
            // Ten minutes before the margin: still fresh (the slack covers a slow machine between these lines).
            offset.withLock { $0 = 3600 - 300 - 600 }
            #expect(try await user.getIDToken() == first && transport.sent(.token) == 0)
            offset.withLock { $0 = 3600 - 300 + 1 }
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<16 { group.addTask { try await user.getIDToken() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(transport.sent(.token) == 1)
            #expect(Set(tokens).count == 1)
            // The old token had not expired: the gateway still takes it.
            #expect(try await environment.api().lookup(idToken: first).status == 200)
        }

        @Test("with short-lived tokens the margin is at most half the lifetime: a fresh token is reused, not refreshed")
        func marginOfShortLivedTokens() async throws {
            let environment = try ClientEnvironment.shared
            let start = Date()
            let offset = Locked<TimeInterval>(0)
            let transport = ControlledTransport()
            var configuration = environment.configuration(.short)  // 8-second tokens, the default margin of 300 s
            configuration.clock = { start.addingTimeInterval(offset.current) }
            configuration.transport = transport
            let user = try await Auth(configuration: configuration).signInAnonymously().user
            let first = try await user.getIDToken()
            offset.withLock { $0 = ClientEnvironment.shortTokenLifetime / 2 - 1 }
            #expect(try await user.getIDToken() == first && transport.sent(.token) == 0)
            offset.withLock { $0 = ClientEnvironment.shortTokenLifetime / 2 + 0.5 }
            _ = try await user.getIDToken()
            #expect(transport.sent(.token) == 1)
        }

        @Test("getIDToken(forcingRefresh:) always asks the gateway; custom claims set by an admin show up")
        func forcedRefreshAndClaims() async throws {
            let environment = try ClientEnvironment.shared
            let transport = ControlledTransport()
            var configuration = environment.configuration()
            configuration.transport = transport
            let user = try await Auth(configuration: configuration).signInAnonymously().user
            try await environment.api().adminUpdate(user.uid, ["customAttributes": #"{"role":"editor","level":3}"#])
            #expect(try await user.getIDTokenResult().claims["role"] == nil)
            let result = try await user.getIDTokenResult(forcingRefresh: true)
            #expect(transport.sent(.token) == 1)
            #expect(result.claims["role"] as? String == "editor" && (result.claims["level"] as? NSNumber)?.intValue == 3)
        }

        @Test("a refreshed ID token for another project is refused (invalidConfiguration), and the session keeps its tokens")
        func refreshedTokenOfAnotherProject() async throws {
            let environment = try ClientEnvironment.shared
            let transport = ControlledTransport()
            var configuration = environment.configuration()
            configuration.transport = transport
            let auth = try Auth(configuration: configuration)
            let user = try await auth.signInAnonymously().user
            let before = user.tokenPair
            // The token endpoint's answer with an ID token minted for another project (the claims are all the client reads).
            let now = Int(Date().timeIntervalSince1970)
            let claims = #"{"aud":"another-project","iat":\#(now),"exp":\#(now + 3600),"sub":"\#(user.uid)"}"#
            let foreign = "eyJhbGciOiJSUzI1NiJ9." + Data(claims.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + ".c2ln"
            transport.rewriteAnswers(of: .token) { data in
                guard var answer = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return data }
                answer["id_token"] = foreign
                return (try? JSONSerialization.data(withJSONObject: answer)) ?? data
            }
            let error = await authError { _ = try await user.getIDToken(forcingRefresh: true) }
            #expect(error?.code == .invalidConfiguration && error?.message.contains("another-project") == true)
            #expect(user.tokenPair == before && auth.currentUser === user)
        }

        @Test("a session the gateway ended (an admin's revocation) signs the user out: userTokenExpired")
        func revokedSession() async throws {
            let environment = try ClientEnvironment.shared
            let store = InMemorySessionStore()
            let auth = try environment.auth(store: store)
            let user = try await auth.signInAnonymously().user
            try await Task.sleep(for: .seconds(1.1))
            try await environment.api().revokeSessions(user.uid)
            let error = await authError { _ = try await user.getIDToken(forcingRefresh: true) }
            #expect(error?.code == .userTokenExpired && error?.gatewayCode == "TOKEN_EXPIRED")
            #expect(auth.currentUser == nil)
            #expect(try store.load(key: auth.configuration.sessionKey) == nil)
        }

        @Test("a disabled account: the next refresh is userDisabled and signs out")
        func disabledAccount() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let user = try await auth.signInAnonymously().user
            try await environment.api().disable(user.uid)
            #expect(await authError { _ = try await user.getIDToken(forcingRefresh: true) }?.code == .userDisabled)
            #expect(auth.currentUser == nil)
        }
    }
}
