import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Linking, unlinking and reauthentication")
    struct LinkingTests {
        @Test("a password linked to an anonymous user keeps its uid; the password then signs in to it")
        func linkPassword() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let email = Unique.email("upgrade")
            try await anonymous.link(with: EmailAuthProvider.credential(withEmail: email, password: "upgrade-pass-1"))
            #expect(anonymous.email == email && anonymous.providerData.map(\.providerID) == ["password"] && !anonymous.isAnonymous)
            try auth.signOut()
            #expect(try await auth.signIn(withEmail: email, password: "upgrade-pass-1").user.uid == anonymous.uid)
        }

        @Test("unlink removes a provider; one the user does not have is noSuchProvider without asking the gateway")
        func unlink() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let sub = Unique.subject("apple")
            let user = try await auth.signIn(with: environment.appleCredential(sub: sub)).user
            try await user.link(with: environment.facebookCredential(userID: Unique.subject("fb")))
            let returned = try await user.unlink(fromProvider: "apple.com")
            #expect(returned === user && user.providerData.map(\.providerID) == ["facebook.com"])
            let stored = try await environment.api().user(user.uid)
            #expect((stored?["providerUserInfo"] as? [[String: Any]])?.compactMap { $0["providerId"] as? String } == ["facebook.com"])
            #expect(await authError { try await user.unlink(fromProvider: "apple.com") }?.code == .noSuchProvider)
            // The Apple identity is free again: signing in with it makes another account.
            let fresh = try await environment.auth().signIn(with: environment.appleCredential(sub: sub))
            #expect(fresh.user.uid != user.uid && fresh.additionalUserInfo?.isNewUser == true)
        }

        @Test("a second identity of a provider the user already has is providerAlreadyLinked")
        func providerAlreadyLinked() async throws {
            let environment = try ClientEnvironment.shared
            let user = try await environment.auth().signIn(with: environment.appleCredential(sub: Unique.subject("apple"))).user
            let error = await authError { try await user.link(with: environment.appleCredential(sub: Unique.subject("apple"))) }
            #expect(error?.code == .providerAlreadyLinked)
            #expect(user.providerData.count == 1)
        }

        @Test("reauthenticate with the password; another user's password is userMismatch, a wrong one wrongPassword")
        func reauthenticateWithPassword() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser(password: "reauth-pass-1")
            let (_, _, otherEmail) = try await environment.passwordUser(password: "other-pass-1")
            try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: email, password: "reauth-pass-1"))
            #expect(await authError {
                try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: otherEmail, password: "other-pass-1"))
            }?.code == .userMismatch)
            #expect(await authError {
                try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: email, password: "wrong-pass-1"))
            }?.code == .wrongPassword)
            #expect(await authError {
                try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: Unique.email("nobody"), password: "x-pass-1"))
            }?.code == .userMismatch)
            #expect(auth.currentUser === user)
        }

        @Test("an operation that needs a recent sign-in works again after reauthenticate (ID tokens of 8 s, recent = 3 s)")
        func recentLogin() async throws {
            let environment = try ClientEnvironment.shared
            var configuration = environment.configuration(.short)
            configuration.tokenRefreshMargin = 1  // no refresh between the reauthentication and the change
            let auth = try Auth(configuration: configuration)
            let email = Unique.email()
            let user = try await auth.createUser(withEmail: email, password: "recent-pass-1").user
            try await Task.sleep(for: .seconds(ClientEnvironment.recentSignInSeconds + 1.2))
            #expect(await authError { try await user.updatePassword(to: "recent-pass-2") }?.code == .requiresRecentLogin)
            #expect(auth.currentUser === user)
            // A reauthentication makes the sign-in recent again for 3 s: on a machine slow enough to spend that between
            // the two calls, try again (a reauthentication that did nothing fails every time).
            var changed = false
            for _ in 0..<3 where !changed {
                try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: email, password: "recent-pass-1"))
                do {
                    try await user.updatePassword(to: "recent-pass-2")
                    changed = true
                } catch let error as AuthError where error.code == .requiresRecentLogin {}
            }
            #expect(changed)
            try auth.signOut()
            #expect(try await auth.signIn(withEmail: email, password: "recent-pass-2").user.uid == user.uid)
        }
    }
}
