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
    }
}
