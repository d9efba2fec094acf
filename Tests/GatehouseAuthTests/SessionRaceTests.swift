import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Sessions under concurrency: sign-out, a newer session and a failing network each stand")
    struct SessionRaceTests {
        /// A signed-in password user whose `Auth` sends through `transport` and stores in `store`.
        static func passwordUser(_ transport: ControlledTransport, store: any AuthSessionStore = InMemorySessionStore())
            async throws -> (auth: Auth, user: User) {
            let environment = try ClientEnvironment.shared
            var configuration = environment.configuration(store: store)
            configuration.transport = transport
            let auth = try Auth(configuration: configuration)
            let user = try await auth.createUser(withEmail: Unique.email("race"), password: "race-pass-1").user
            return (auth, user)
        }

        @Test("a refresh that finishes while signOut() runs does not write the session back to the store")
        func refreshDuringSignOut() async throws {
            let store = GatedStore()
            let (auth, user) = try await Self.passwordUser(ControlledTransport(), store: store)
            store.close()
            let refresh = Task { try await user.getIDToken(forcingRefresh: true) }
            try await eventually("the refreshed session to be stored") { store.saveIsWaiting }
            let signedOut = Locked(false)
            Thread {
                try? auth.signOut()
                signedOut.withLock { $0 = true }
            }.start()
            // Time for signOut() to run (without the change lock it removes the session now, and the refresh's
            // write then puts it back); with the lock it waits for the write and removes what it wrote.
            try await Task.sleep(for: .milliseconds(300))
            store.open()
            _ = try await refresh.value
            try await eventually("signOut() to return") { signedOut.current }
            #expect(auth.currentUser == nil)
            #expect(try store.load(key: auth.configuration.sessionKey) == nil)
        }

        @Test("a request refused for a token that a concurrent password change ended is retried with the new token")
        func staleRefusalIsRetried() async throws {
            let transport = ControlledTransport()
            let (auth, user) = try await Self.passwordUser(transport)
            // ID tokens are revoked in whole seconds: the first one must be older than the change's second.
            try await Task.sleep(for: .seconds(1.1))
            let lookup = transport.hold(.lookup, .beforeSending)
            let reload = Task { try await user.reload() }
            try await lookup.reached()
            try await user.updatePassword(to: "race-pass-2")
            lookup.release()
            try await reload.value
            #expect(transport.refused(.lookup) == 1, "the held lookup was sent with the ended token")
            #expect(auth.currentUser === user)
        }

        @Test("a refresh refused because a concurrent password change revoked its refresh token keeps the new session")
        func staleRefreshRefusal() async throws {
            let transport = ControlledTransport()
            let store = InMemorySessionStore()
            let (auth, user) = try await Self.passwordUser(transport, store: store)
            let update = transport.hold(.update, .withAnswer)
            let change = Task { try await user.updatePassword(to: "race-pass-2") }
            try await update.reached()  // the password changed at the gateway: the old refresh token is revoked
            let token = transport.hold(.token, .withAnswer)
            let refresh = Task { try await user.getIDToken(forcingRefresh: true) }
            try await token.reached()  // refused at the gateway, not yet seen by the library
            update.release()
            try await change.value  // the new session is the user's
            token.release()
            let refreshed = try await refresh.value
            #expect(transport.refused(.token) == 1, "the refresh was sent with the revoked token")
            #expect(auth.currentUser === user && refreshed == user.tokenPair.idToken)
            #expect(try store.load(key: auth.configuration.sessionKey) != nil)
            #expect(try await ClientEnvironment.shared.api().lookup(idToken: refreshed).status == 200)
        }

        @Test("a network failure during a refresh keeps the user and the stored session; the next refresh works")
        func networkFailureDuringRefresh() async throws {
            let transport = ControlledTransport()
            let store = InMemorySessionStore()
            let (auth, user) = try await Self.passwordUser(transport, store: store)
            let before = try await user.getIDToken()
            transport.setFailing(.token, true)
            let error = await authError { _ = try await user.getIDToken(forcingRefresh: true) }
            #expect(error?.code == .networkError)
            // The transport's error, under NSUnderlyingErrorKey as FirebaseAuth puts it.
            let underlying = (error.map { $0 as NSError })?.userInfo[NSUnderlyingErrorKey] as? NSError
            #expect(underlying?.domain == NSURLErrorDomain && underlying?.code == NSURLErrorNotConnectedToInternet)
            #expect((error?.underlyingError as? URLError)?.code == .notConnectedToInternet)
            #expect(auth.currentUser === user && user.tokenPair.idToken == before)
            #expect(try store.load(key: auth.configuration.sessionKey) != nil)
            #expect(try Auth(configuration: auth.configuration).currentUser?.uid == user.uid)
            transport.setFailing(.token, false)
            // (Within one second the new ID token may equal the old one: same claims, same signature.)
            let after = try await user.getIDToken(forcingRefresh: true)
            #expect(transport.sent(.token) == 1 && transport.refused(.token) == 0)
            #expect(try await ClientEnvironment.shared.api().lookup(idToken: after).status == 200)
        }
    }
}
