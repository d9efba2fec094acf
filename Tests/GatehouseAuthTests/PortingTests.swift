import Foundation
@testable import GatehouseAuth
import Testing

/// Code written for FirebaseAuth, as its samples and documentation spell it: it must compile against this
/// library unchanged (most of these checks are the compiler's).
@Suite("FirebaseAuth's spellings: code ported from it compiles and means the same")
struct PortingTests {
    @Test("ActionCodeSettings is a class set up after init, as in Firebase's email-link sample")
    func actionCodeSettings() {
        let actionCodeSettings = ActionCodeSettings()
        actionCodeSettings.url = URL(string: "https://app.example.com/finish")
        actionCodeSettings.handleCodeInApp = true
        actionCodeSettings.setIOSBundleID("com.example.app")
        actionCodeSettings.setAndroidPackageName("com.example.android", installIfNotAvailable: false, minimumVersion: "12")
        let fields = actionCodeSettings.fields
        #expect(fields["continueUrl"] as? String == "https://app.example.com/finish" && fields["canHandleCodeInApp"] as? Bool == true)
        #expect(fields["iOSBundleId"] as? String == "com.example.app" && fields["androidPackageName"] as? String == "com.example.android")
        #expect(fields["androidInstallApp"] as? Bool == false && fields["androidMinimumVersion"] as? String == "12")
        #expect(actionCodeSettings.iOSBundleID == "com.example.app")
    }

    @Test("OAuthProvider.credential(withProviderID:idToken:accessToken:) carries both tokens and no nonce")
    func oauthCredentialWithAccessToken() {
        let credential = OAuthProvider.credential(withProviderID: "google.com", idToken: "id-token", accessToken: "access-token")
        #expect(credential.provider == "google.com" && credential.idToken == "id-token" && credential.accessToken == "access-token")
        #expect(credential.rawNonce == nil)
        guard case .idp(let fields) = credential.payload else { Issue.record("not a signInWithIdp credential"); return }
        #expect(fields.map(\.0) == ["id_token", "access_token"])
    }

    @Test("providerData is [UserInfo], and a User is a UserInfo, as in FirebaseAuth")
    func userInfo() {
        func describe(_ info: any UserInfo) -> String { "\(info.providerID)/\(info.uid)/\(info.email ?? "-")" }
        func providers(of infos: [any UserInfo]) -> [String] { infos.map(describe) }
        let entry = ProviderUserInfo(providerID: "apple.com", uid: "sub-1", displayName: nil, email: "a@example.com",
                                     phoneNumber: nil, photoURL: nil)
        #expect(providers(of: [entry]) == ["apple.com/sub-1/a@example.com"])
        func asUserInfo(_ user: User) -> any UserInfo { user }
        _ = asUserInfo
    }

    @Test("verifyPhoneNumber takes FirebaseAuth's uiDelegate label (nil: there is no reCAPTCHA page)")
    func verifyPhoneNumberSpelling() {
        // Only the compiler checks this: the calls are made, with a gateway, in the phone tests.
        let spelled: (PhoneAuthProvider) async throws -> String = { try await $0.verifyPhoneNumber("+15555550100", uiDelegate: nil) }
        _ = spelled
    }
}
