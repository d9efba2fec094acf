import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Email and password: create, sign in, verify, reset, change")
    struct EmailPasswordTests {
        @Test("createUser and signIn(withEmail:password:) reach the same account; a wrong password is wrongPassword")
        func createAndSignIn() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser(password: "first-pass-1")
            #expect(user.email == email && !user.isAnonymous && !user.isEmailVerified)
            #expect(user.providerData.map(\.providerID) == ["password"])
            #expect(try await user.getIDTokenResult().signInProvider == "password")

            try auth.signOut()
            let again = try await auth.signIn(withEmail: email, password: "first-pass-1")
            #expect(again.user.uid == user.uid && again.additionalUserInfo?.isNewUser == false)
            #expect(await authError { try await auth.signIn(withEmail: email, password: "wrong-pass-1") }?.code == .wrongPassword)
            #expect(auth.currentUser?.uid == user.uid)
        }

        @Test("sendEmailVerification mails a link whose code applyActionCode uses; reload shows the address verified")
        func verifyEmail() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser()
            let settings = ActionCodeSettings()
            settings.url = URL(string: "https://app.example.com/verified")
            try await user.sendEmailVerification(with: settings)
            let mail = try await environment.mail(to: email)
            #expect(mail.link.contains("mode=verifyEmail") && mail.link.contains("continueUrl="))
            let code = try #require(URLComponents(string: mail.link)?.queryItems?.first { $0.name == "oobCode" }?.value)
            let info = try await auth.checkActionCode(code)
            #expect(info.operation == .verifyEmail && info.email == email && info.previousEmail == nil)
            try await auth.applyActionCode(code)
            #expect(!user.isEmailVerified)
            try await user.reload()
            #expect(user.isEmailVerified)
            #expect(await authError { try await auth.applyActionCode(code) }?.code == .invalidActionCode)
        }

        @Test("a password reset: the mailed code is checked, then sets the password; the old one stops working")
        func passwordReset() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser(password: "old-pass-1")
            try auth.signOut()
            try await auth.sendPasswordReset(withEmail: email)
            let code = try await environment.oobCode(to: email)
            #expect(try await auth.verifyPasswordResetCode(code) == email)
            #expect(try await auth.checkActionCode(code).operation == .passwordReset)
            #expect(await authError { try await auth.confirmPasswordReset(withCode: code, newPassword: "x") }?.code == .weakPassword)
            try await auth.confirmPasswordReset(withCode: code, newPassword: "new-pass-1")
            #expect(await authError { try await auth.signIn(withEmail: email, password: "old-pass-1") }?.code == .wrongPassword)
            #expect(try await auth.signIn(withEmail: email, password: "new-pass-1").user.uid == user.uid)
            #expect(await authError { try await auth.confirmPasswordReset(withCode: code, newPassword: "third-pass-1") }?.code
                == .invalidActionCode)
        }

        @Test("updatePassword keeps this session (fresh tokens) and ends the others")
        func updatePassword() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser(password: "before-pass-1")
            let otherDevice = try environment.auth()
            let other = try await otherDevice.signIn(withEmail: email, password: "before-pass-1").user
            let refreshTokenBefore = user.refreshToken
            try await user.updatePassword(to: "after-pass-1")
            // A new session: a new refresh token (the ID token can be the same bytes when minted in the same second).
            #expect(user.refreshToken != refreshTokenBefore)
            try await user.reload()
            #expect(auth.currentUser === user)
            let ended = await authError { _ = try await other.getIDToken(forcingRefresh: true) }
            #expect(ended?.code == .userTokenExpired)
            #expect(otherDevice.currentUser == nil)
            try auth.signOut()
            #expect(try await auth.signIn(withEmail: email, password: "after-pass-1").user.uid == user.uid)
        }

        @Test("updateEmail changes the address at once; sendEmailVerification(beforeUpdatingEmail:) only once the link is used")
        func changeEmail() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser(password: "change-pass-1")
            let direct = Unique.email("direct")
            try await user.updateEmail(to: direct)
            #expect(user.email == direct)
            try auth.signOut()
            #expect(try await auth.signIn(withEmail: direct, password: "change-pass-1").user.uid == user.uid)
            #expect(await authError { try await auth.signIn(withEmail: email, password: "change-pass-1") }?.code == .userNotFound)

            let current = try #require(auth.currentUser)
            let verified = Unique.email("verified")
            try await current.sendEmailVerification(beforeUpdatingEmail: verified)
            #expect(current.email == direct)
            let code = try await environment.oobCode(to: verified)
            let info = try await auth.checkActionCode(code)
            #expect(info.operation == .verifyAndChangeEmail && info.email == verified && info.previousEmail == direct)
            try await auth.applyActionCode(code)
            try auth.signOut()
            let moved = try await auth.signIn(withEmail: verified, password: "change-pass-1").user
            #expect(moved.uid == user.uid && moved.isEmailVerified)
        }

        @Test("a profile change sets the display name and photo URL; setting nil removes them")
        func profile() async throws {
            let environment = try ClientEnvironment.shared
            let (_, user, _) = try await environment.passwordUser()
            let change = user.createProfileChangeRequest()
            change.displayName = "Ada Lovelace"
            change.photoURL = URL(string: "https://cdn.example.com/ada.png")
            try await change.commitChanges()
            #expect(user.displayName == "Ada Lovelace" && user.photoURL?.absoluteString == "https://cdn.example.com/ada.png")
            #expect(try await user.getIDTokenResult().claims["name"] as? String == "Ada Lovelace")
            let removal = user.createProfileChangeRequest()
            removal.displayName = nil
            try await removal.commitChanges()
            try await user.reload()
            #expect(user.displayName == nil && user.photoURL?.absoluteString == "https://cdn.example.com/ada.png")
        }

        @Test("delete() removes the account at the gateway and signs out")
        func delete() async throws {
            let environment = try ClientEnvironment.shared
            let (auth, user, email) = try await environment.passwordUser(password: "delete-pass-1")
            try await user.delete()
            #expect(auth.currentUser == nil)
            #expect(try await environment.api().user(user.uid) == nil)
            #expect(await authError { try await auth.signIn(withEmail: email, password: "delete-pass-1") }?.code == .userNotFound)
        }
    }
}
