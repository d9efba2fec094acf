import Foundation
@testable import GatehouseAuth
import Testing

/// The library's pure parts, no gateway needed.
@Suite("GatehouseAuth building blocks: SHA-256, nonces, form encoding, email links, error bridging")
struct GatehouseAuthUnitTests {
    @Test("SHA-256 matches the FIPS 180-4 vectors, across block boundaries")
    func sha256() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a nonce is random, of the asked length, from the URL-safe alphabet, with the SHA-256 hex of its raw text")
    func nonce() {
        let nonces = (0..<50).map { _ in AuthNonce() }
        #expect(Set(nonces.map(\.raw)).count == 50)
        #expect(nonces.allSatisfy { $0.raw.count == 32 && $0.raw.allSatisfy(AuthNonce.alphabet.contains) })
        #expect(nonces.allSatisfy { $0.sha256 == SHA256.hex($0.raw) && $0.sha256.count == 64 })
        #expect(AuthNonce(length: 8).raw.count == 8)
        #expect(AuthNonce(raw: "abc").sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("form encoding keeps +, &, = and non-ASCII inside values, and decodes back")
    func formEncoding() {
        let pairs = [("providerId", "telegram.org"), ("access_token", "user=%7B%22a%22%7D&hash=a+b=c"), ("name", "Sára Ahmadi")]
        let encoded = FormEncoding.encode(pairs)
        #expect(!encoded.contains("+") && encoded.components(separatedBy: "&").count == 3)
        let decoded = FormDecoding.decode(encoded)
        #expect(decoded.map(\.0) == pairs.map(\.0) && decoded.map(\.1) == pairs.map(\.1))
    }

    @Test("email sign-in links are recognised directly, after the action page's redirect, and wrapped in a link parameter")
    func emailLinks() {
        let action = "https://auth.example.com/__/auth/action?mode=signIn&oobCode=CODE1&apiKey=k&lang=en"
        let redirected = "https://app.example.com/finish?state=1&mode=signIn&oobCode=CODE2&apiKey=k"
        let wrapped = "https://app.example.com/open?link=" + (action.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        for link in [action, redirected, wrapped] { #expect(EmailLink.isSignInLink(link)) }
        #expect(EmailLink.oobCode(in: redirected) == "CODE2" && EmailLink.oobCode(in: wrapped) == "CODE1")
        #expect(!EmailLink.isSignInLink("https://auth.example.com/__/auth/action?mode=resetPassword&oobCode=X"))
        #expect(!EmailLink.isSignInLink("https://app.example.com/?mode=signIn"))
        #expect(!EmailLink.isSignInLink("not a link"))
    }

    @Test("an AuthError is an NSError with FirebaseAuth's code, name and user-info keys")
    func nsErrorBridging() {
        let credential = OAuthCredential(pendingToken: "ghp.x", providerID: "apple.com", email: "a@example.com")
        let error = AuthError(.credentialAlreadyInUse, "in use", gatewayCode: "FEDERATED_USER_ID_ALREADY_LINKED",
                              updatedCredential: credential, email: "a@example.com")
        let bridged = error as NSError
        #expect(bridged.domain == AuthErrorDomain && bridged.code == 17025)
        #expect(AuthErrorCode(rawValue: bridged.code) == .credentialAlreadyInUse)
        #expect(bridged.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? AuthCredential === credential)
        #expect(bridged.userInfo[AuthErrorUserInfoEmailKey] as? String == "a@example.com")
        #expect(bridged.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_CREDENTIAL_ALREADY_IN_USE")
        #expect(AuthErrorCode.invalidAPIKey.errorName == "ERROR_INVALID_API_KEY")
        #expect(bridged.localizedDescription == "in use")
    }

    @Test("the Apple name parameter is the form the gateway reads, and absent without a name")
    func appleName() {
        var name = PersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        #expect(OAuthProvider.appleUserParameter(name) == #"{"name":{"firstName":"Ada","lastName":"Lovelace"}}"#)
        #expect(OAuthProvider.appleUserParameter(PersonNameComponents()) == nil)
        #expect(OAuthProvider.appleUserParameter(nil) == nil)
    }
}
