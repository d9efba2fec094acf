import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Facebook Login: classic tokens, Limited Login, the second provider of the seeds' linking flow")
    struct FacebookTests {
        @Test("FacebookAuthProvider.credential(withAccessToken:) signs in with the Graph profile")
        func classic() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let userID = Unique.subject("fb")
            let result = try await auth.signIn(with: environment.facebookCredential(userID: userID))
            #expect(result.user.providerData.map(\.providerID) == ["facebook.com"] && result.user.displayName == "Ada Lovelace")
            #expect(result.additionalUserInfo?.profile?["id"] as? String == userID)
            #expect(result.credential?.accessToken != nil)
        }

        @Test("Limited Login: OAuthProvider.credential(providerID: \"facebook.com\", idToken:, rawNonce:)")
        func limitedLogin() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let sub = Unique.subject("ll")
            let nonce = AuthNonce()
            let token = try await environment.standIns.string("facebook_limited_token", ["sub": sub, "nonce": nonce.raw])
            let user = try await auth.signIn(with: OAuthProvider.credential(providerID: "facebook.com", idToken: token, rawNonce: nonce.raw)).user
            #expect(user.providerData.first?.uid == sub)
            let wrongNonce = try await environment.standIns.string("facebook_limited_token", ["sub": sub, "nonce": AuthNonce().raw])
            #expect(await authError {
                try await auth.signIn(with: OAuthProvider.credential(withProviderID: "facebook.com", idToken: wrongNonce, rawNonce: nonce.raw))
            }?.code == .missingOrInvalidNonce)
        }

        @Test("an Apple user links Facebook (the seeds' example); Facebook of another account gives the updated credential")
        func linkAndCredentialAlreadyInUse() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let apple = try await auth.signIn(with: environment.appleCredential(sub: Unique.subject("apple"))).user
            try await apple.link(with: environment.facebookCredential(userID: Unique.subject("fb")))
            #expect(Set(apple.providerData.map(\.providerID)) == ["apple.com", "facebook.com"])

            let taken = Unique.subject("fb")
            let owner = try await environment.auth().signIn(with: environment.facebookCredential(userID: taken)).user
            let otherAuth = try environment.auth()
            let other = try await otherAuth.signIn(with: environment.appleCredential(sub: Unique.subject("apple"))).user
            let error = try #require(await authError { try await other.link(with: environment.facebookCredential(userID: taken)) })
            #expect(error.code == .credentialAlreadyInUse)
            let updated = try #require(error.updatedCredential)
            #expect(updated.provider == "facebook.com")
            #expect(other.auth === otherAuth)
            let switched = try await otherAuth.signIn(with: updated)
            #expect(switched.user.uid == owner.uid)
        }

        @Test("an email another account has: accountExistsWithDifferentCredential, then link the updated credential after signing in")
        func accountExistsWithDifferentCredential() async throws {
            let environment = try ClientEnvironment.shared
            let (_, existing, email) = try await environment.passwordUser(password: "exists-pass-1")
            let auth = try environment.auth()
            let error = try #require(await authError {
                try await auth.signIn(with: environment.facebookCredential(userID: Unique.subject("fb"), email: email))
            })
            #expect(error.code == .accountExistsWithDifferentCredential && error.gatewayCode == "NEED_CONFIRMATION")
            #expect(error.email == email)
            #expect(auth.currentUser == nil)
            let pending = try #require(error.updatedCredential)
            let user = try await auth.signIn(withEmail: email, password: "exists-pass-1").user
            #expect(user.uid == existing.uid)
            try await user.link(with: pending)
            #expect(Set(user.providerData.map(\.providerID)) == ["password", "facebook.com"])
        }

        @Test("linking a provider whose email another account has: emailAlreadyInUse, from a 200 answer, with the email and the pending credential")
        func linkEmailAlreadyInUse() async throws {
            let environment = try ClientEnvironment.shared
            let (_, existing, email) = try await environment.passwordUser(password: "held-pass-1")
            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let error = try #require(await authError {
                try await anonymous.link(with: environment.facebookCredential(userID: Unique.subject("fb"), email: email))
            })
            #expect(error.code == .emailAlreadyInUse && error.gatewayCode == "EMAIL_EXISTS" && error.httpStatus == 200)
            #expect(error.email == email)
            #expect(auth.currentUser === anonymous && anonymous.isAnonymous)
            // The pending credential links the identity to the account that has the address, once signed in there.
            let pending = try #require(error.updatedCredential as? OAuthCredential)
            #expect(pending.provider == "facebook.com" && pending.email == email)
            let owner = try await auth.signIn(withEmail: email, password: "held-pass-1").user
            #expect(owner.uid == existing.uid)
            try await owner.link(with: pending)
            #expect(Set(owner.providerData.map(\.providerID)) == ["password", "facebook.com"])
        }
    }
}
