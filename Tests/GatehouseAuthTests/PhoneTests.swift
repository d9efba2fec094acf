import Foundation
@testable import GatehouseAuth
import Testing

extension ClientTests {
    @Suite("Phone sign-in: send a code, verify it, link, and the phone's updated credential")
    struct PhoneTests {
        func credential(_ auth: Auth, _ phone: (number: String, code: String)) async throws -> PhoneAuthCredential {
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(phone.number)
            return provider.credential(withVerificationID: verificationID, verificationCode: phone.code)
        }

        @Test("verifyPhoneNumber then the code signs in (a new account first, the same one after)")
        func signIn() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let phone = Unique.phoneNumber()
            let result = try await auth.signIn(with: credential(auth, phone))
            #expect(result.additionalUserInfo?.isNewUser == true && result.user.phoneNumber == phone.number)
            #expect(result.user.providerData.map(\.providerID) == ["phone"] && !result.user.isAnonymous)
            #expect(try await result.user.getIDTokenResult().signInProvider == "phone")
            let again = try await auth.signIn(with: credential(auth, phone))
            #expect(again.user.uid == result.user.uid && again.additionalUserInfo?.isNewUser == false)
            try await again.user.reauthenticate(with: credential(auth, phone))
            // An empty number is refused before any request, as FirebaseAuth does.
            #expect(await authError { _ = try await PhoneAuthProvider.provider(auth: auth).verifyPhoneNumber("") }?.code == .missingPhoneNumber)
        }

        @Test("a number another account holds: credentialAlreadyInUse with the temporary proof, which signs in to its owner")
        func credentialAlreadyInUse() async throws {
            let environment = try ClientEnvironment.shared
            let phone = Unique.phoneNumber()
            let ownerAuth = try environment.auth()
            let owner = try await ownerAuth.signIn(with: credential(ownerAuth, phone)).user

            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let error = try #require(await authError { try await anonymous.link(with: credential(auth, phone)) })
            #expect(error.code == .credentialAlreadyInUse && error.phoneNumber == phone.number)
            let updated = try #require(error.updatedCredential as? PhoneAuthCredential)
            #expect(updated.phoneNumber == phone.number)
            #expect(try await auth.signIn(with: updated).user.uid == owner.uid)
            #expect(await authError { try await auth.signIn(with: updated) }?.code == .invalidCredential)
        }

        @Test("linking a number to an anonymous user keeps its uid; unlinking it leaves the account")
        func linkAndUnlink() async throws {
            let environment = try ClientEnvironment.shared
            let auth = try environment.auth()
            let anonymous = try await auth.signInAnonymously().user
            let phone = Unique.phoneNumber()
            try await anonymous.link(with: credential(auth, phone))
            #expect(anonymous.phoneNumber == phone.number && !anonymous.isAnonymous)
            try await anonymous.unlink(fromProvider: "phone")
            #expect(anonymous.phoneNumber == nil && anonymous.providerData.isEmpty)
        }
    }
}
