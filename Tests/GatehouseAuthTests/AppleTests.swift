import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Sign in with Apple: the seeds' flow with a nonce, linking, the updated credential")
    struct AppleTests {
        static func name(_ given: String, _ family: String) -> PersonNameComponents {
            var name = PersonNameComponents()
            name.givenName = given
            name.familyName = family
            return name
        }

        @Test("signIn(with: appleCredential) with a raw nonce whose SHA-256 Apple signed; the first-time name is kept")
        func signIn() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let sub = Unique.subject("apple")
            let email = Unique.email("apple")
            let credential = try await environment.appleCredential(sub: sub, email: email, fullName: Self.name("Ada", "Lovelace"))
            let result = try await auth.signIn(with: credential)
            let user = result.user
            #expect(result.additionalUserInfo?.isNewUser == true && result.additionalUserInfo?.providerID == "apple.com")
            #expect(user.displayName == "Ada Lovelace" && user.email == email)
            #expect(user.providerData.map(\.providerID) == ["apple.com"] && user.providerData.first?.uid == sub)
            #expect(try await user.getIDTokenResult().signInProvider == "apple.com")
            #expect(result.credential?.idToken == credential.idToken)

            // The same nonce twice is a replay.
            let replay = await authError { try await auth.signIn(with: credential) }
            #expect(replay?.code == .missingOrInvalidNonce)
            let again = try await auth.signIn(with: environment.appleCredential(sub: sub))
            #expect(again.user.uid == user.uid && again.additionalUserInfo?.isNewUser == false)
            #expect(again.user.displayName == "Ada Lovelace")
        }

        @Test("linking Apple to an anonymous user keeps its uid and makes it an Apple account")
        func linkToAnonymous() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let sub = Unique.subject("apple")
            let result = try await anonymous.link(with: environment.appleCredential(sub: sub))
            #expect(result.user === anonymous && auth.currentUser === anonymous)
            #expect(!anonymous.isAnonymous && anonymous.providerData.map(\.providerID) == ["apple.com"])
            #expect(try await anonymous.getIDTokenResult().signInProvider == "apple.com")
            try auth.signOut()
            #expect(try await auth.signIn(with: environment.appleCredential(sub: sub)).user.uid == anonymous.uid)
        }

        @Test("credential-already-in-use: the error carries the updated credential, which signs in to the Apple identity's owner once")
        func credentialAlreadyInUse() async throws {
            let environment = try ClientEnvironment.shared
            let sub = Unique.subject("apple")
            let email = Unique.email("owner")
            let owner = try await environment.auth().signIn(with: environment.appleCredential(sub: sub, email: email)).user

            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let error = try #require(await authError { try await anonymous.link(with: environment.appleCredential(sub: sub, email: email)) })
            #expect(error.code == .credentialAlreadyInUse && error.gatewayCode == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(error.email == email)
            let updated = try #require(error.updatedCredential)
            #expect(updated.provider == "apple.com")
            // The NSError form ported FirebaseAuth code reads.
            #expect((error as NSError).userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? AuthCredential === updated)
            #expect(auth.currentUser === anonymous && anonymous.isAnonymous)

            let signedIn = try await auth.signIn(with: updated)
            #expect(signedIn.user.uid == owner.uid && auth.currentUser === signedIn.user)
            #expect(await authError { try await auth.signIn(with: updated) }?.code == .invalidCredential)
        }

        @Test("reauthenticate with a fresh Apple credential refreshes the sign-in; another Apple account is userMismatch")
        func reauthenticate() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let sub = Unique.subject("apple")
            let user = try await auth.signIn(with: environment.appleCredential(sub: sub)).user
            let before = try await user.getIDTokenResult()
            try await Task.sleep(for: .seconds(1.1))
            try await user.reauthenticate(with: environment.appleCredential(sub: sub))
            let after = try await user.getIDTokenResult()
            #expect(after.token != before.token && after.authDate > before.authDate)
            let nobody = Unique.subject("nobody")
            #expect(await authError { try await user.reauthenticate(with: environment.appleCredential(sub: nobody)) }?.code == .userMismatch)
            // Reauthentication never creates an account (`autoCreate: false`).
            #expect(try await environment.api().user(provider: "apple.com", rawID: nobody) == nil)
            #expect(try await environment.api().user(provider: "apple.com", rawID: sub)?["localId"] as? String == user.uid)
            let someoneElse = Unique.subject("someone")
            _ = try await environment.auth().signIn(with: environment.appleCredential(sub: someoneElse))
            #expect(await authError { try await user.reauthenticate(with: environment.appleCredential(sub: someoneElse)) }?.code
                == .userMismatch)
            #expect(auth.currentUser === user)
        }

        @Test("revokeToken(withAuthorizationCode:) has the gateway revoke the app's authorization at Apple")
        func revokeToken() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            _ = try await auth.signIn(with: environment.appleCredential(sub: Unique.subject("apple")))
            let code = "code-" + Unique.token()
            _ = try await environment.standIns.call("apple_accept_code", ["code": code])
            try await auth.revokeToken(withAuthorizationCode: code)
            let revoked = try await environment.standIns.call("apple_revoked").raw as? [String] ?? []
            #expect(revoked.contains { $0.hasSuffix(code) })
        }
    }
}
