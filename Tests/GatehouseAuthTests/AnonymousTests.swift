import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Anonymous sign-in, sign-out and the auth-state listeners")
    struct AnonymousTests {
        @Test("signInAnonymously makes an anonymous current user with a session the gateway accepts")
        func anonymous() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let result = try await auth.signInAnonymously()
            let user = result.user
            #expect(auth.currentUser === user)
            #expect(user.isAnonymous && user.providerData.isEmpty && user.email == nil)
            #expect(result.additionalUserInfo?.isNewUser == true)
            #expect(user.metadata.creationDate != nil)
            let token = try await user.getIDTokenResult()
            #expect(token.signInProvider == "anonymous")
            #expect(token.claims["sub"] as? String == user.uid)
            #expect(token.claims["aud"] as? String == ClientEnvironment.projectID)
            #expect(token.expirationDate > Date())
            let lookup = try await environment.api().lookup(idToken: token.token)
            #expect(lookup.status == 200)
        }

        @Test("sign-out forgets the user and the stored session; listeners see every change in order")
        func signOutAndListeners() async throws {
            let environment = try ClientEnvironment.shared
            let store = InMemorySessionStore()
            let auth = try environment.auth(store: store)
            let seen = Locked<[String?]>([])
            let handle = auth.addStateDidChangeListener { _, user in seen.withLock { $0.append(user?.uid) } }
            var stream = auth.authStateChanges.makeAsyncIterator()
            #expect(await stream.next().map { $0?.uid } == .some(nil))

            let first = try await auth.signInAnonymously().user
            #expect(try store.load(key: auth.configuration.sessionKey) != nil)
            #expect(await stream.next()??.uid == first.uid)
            try auth.signOut()
            #expect(auth.currentUser == nil)
            #expect(try store.load(key: auth.configuration.sessionKey) == nil)
            #expect(await stream.next().map { $0?.uid } == .some(nil))
            let second = try await auth.signInAnonymously().user
            #expect(await stream.next()??.uid == second.uid)
            #expect(seen.current == [nil, first.uid, nil, second.uid])

            auth.removeStateDidChangeListener(handle)
            try auth.signOut()
            #expect(seen.current.count == 4)
            #expect(await stream.next().map { $0?.uid } == .some(nil))
        }
    }
}
