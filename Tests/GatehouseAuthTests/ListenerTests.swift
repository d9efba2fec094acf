import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Auth-state listeners: in the order of the changes, never called under a lock")
    struct ListenerTests {
        @Test("a listener that signs out: every listener hears the sign-in, then the sign-out")
        func reentrantListener() async throws {
            let auth = try ClientEnvironment.shared.auth()
            let seen = Locked<[String?]>([])
            auth.addStateDidChangeListener { auth, user in
                if user != nil { try? auth.signOut() }
            }
            auth.addStateDidChangeListener { _, user in seen.withLock { $0.append(user?.uid) } }
            let user = try await auth.signInAnonymously().user
            #expect(seen.current == [nil, user.uid, nil])
            #expect(auth.currentUser == nil)
        }

        @Test("a listener may wait for another thread that changes the session (as DispatchQueue.main.sync does)")
        func listenerWaitsForAnotherThread() async throws {
            let auth = try ClientEnvironment.shared.auth()
            let otherThreadFinished = Locked<Bool?>(nil)
            auth.addStateDidChangeListener { auth, user in
                guard user != nil else { return }
                let done = DispatchSemaphore(value: 0)
                Thread {
                    try? auth.signOut()
                    done.signal()
                }.start()
                // Ten seconds only when a lock held around this call makes the other thread wait for it.
                otherThreadFinished.withLock { $0 = done.wait(timeout: .now() + 10) == .success }
            }
            _ = try await auth.signInAnonymously()
            #expect(otherThreadFinished.current == true)
            try await eventually("the sign-out to be delivered") { auth.currentUser == nil }
        }

        @Test("authStateChanges keeps the newest changes for a consumer that falls behind, the current user last")
        func streamBuffer() async throws {
            let auth = try ClientEnvironment.shared.auth()
            var changes = auth.authStateChanges.makeAsyncIterator()
            for _ in 0..<100 { try auth.signOut() }
            let user = try await auth.signInAnonymously().user
            var seen: [User?] = []
            while let next = await changes.next() {
                seen.append(next)
                if next === user { break }
            }
            #expect(seen.count == Auth.authStateBufferSize, "kept \(seen.count) of 102 changes")
        }

        @Test("a removed listener is not called for changes made after its removal")
        func removedListener() async throws {
            let auth = try ClientEnvironment.shared.auth()
            let calls = Locked(0)
            let handle = auth.addStateDidChangeListener { _, _ in calls.withLock { $0 += 1 } }
            auth.removeStateDidChangeListener(handle)
            _ = try await auth.signInAnonymously()
            try auth.signOut()
            #expect(calls.current == 1)
        }
    }
}
