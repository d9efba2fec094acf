import AppleTestSupport
import AuthCore
import Testing
@testable import Gateway
import WireFormats

@Suite("Apple profile rules and the credential-already-in-use flow", .serialized)
struct AppleProfileAndLinkingTests {
    let apple = FakeApple()

    func displayName(_ gw: TestGateway, _ reply: TestGateway.Reply) async throws -> String? {
        let lookup = await gw.lookup(try #require(reply["idToken"]?.stringValue))
        return lookup["users"]?.arrayValue?.first?["displayName"]?.stringValue
    }

    @Test("the name sent on the first sign-in becomes displayName; later blanks or names never replace it")
    func nameOnFirstSignIn() async throws {
        let gw = try await TestGateway.withApple(apple)
        let first = await gw.signInWithApple(user: #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"a@x.com"}"#)
        #expect(first["displayName"] == "Ada Lovelace")
        #expect(try await displayName(gw, first) == "Ada Lovelace")
        let blank = await gw.signInWithApple(user: #"{"name":{"firstName":" ","lastName":""}}"#)
        #expect(try await displayName(gw, blank) == "Ada Lovelace")
        let renamed = await gw.signInWithApple(user: #"{"givenName":"Someone","familyName":"Else"}"#)
        #expect(try await displayName(gw, renamed) == "Ada Lovelace")
        #expect(try await displayName(gw, await gw.signInWithApple()) == "Ada Lovelace")
    }

    @Test("the iOS SDK's name form is understood; a user with no name gets none and no photo")
    func iosNameForm() async throws {
        let gw = try await TestGateway.withApple(apple)
        let named = await gw.signInWithApple(sub: "ios-user", user: #"{"name":{"givenName":"Grace","familyName":"Hopper"}}"#)
        #expect(try await displayName(gw, named) == "Grace Hopper")
        let nameless = await gw.signInWithApple(sub: "quiet-user")
        #expect(try await displayName(gw, nameless) == nil)
        #expect(nameless["photoUrl"] == nil)
    }

    @Test("a verified real Apple email auto-links to the account holding it")
    func trustedEmailLinks() async throws {
        let gw = try await TestGateway.withApple(apple)
        let owner = await gw.signInWithIdp(sub: "t1", email: "ada@example.com", trusted: true)
        let signedIn = await gw.signInWithApple(sub: "apple-ada", email: "ada@example.com")
        #expect(signedIn["localId"] == owner["localId"] && signedIn["needConfirmation"] == nil)
    }

    @Test("a private relay address never links by email", arguments: [JSONValue.string("true"), .bool(true), nil])
    func relayNeverLinks(isPrivate: JSONValue?) async throws {
        let gw = try await TestGateway.withApple(apple)
        let relay = "x7y8z9@privaterelay.appleid.com"
        let owner = await gw.signInWithIdp(sub: "t1", email: relay, trusted: true)
        let reply = await gw.signInWithApple(sub: "apple-relay", email: relay, isPrivate: isPrivate)
        #expect(reply["needConfirmation"] == true && reply["localId"] == owner["localId"])
        // Verified (Apple forwards relay mail) but never used to link: Firebase reports emailVerified true.
        #expect(reply["idToken"] == nil && reply["emailVerified"] == true)
        #expect(reply["rawUserInfo"]?.stringValue?.contains("privaterelay.appleid.com") == true)
    }

    @Test("a new relay user is created with a verified email, as Firebase reports it")
    func relayIsVerified() async throws {
        let gw = try await TestGateway.withApple(apple)
        let reply = await gw.signInWithApple(sub: "apple-new-relay", email: "q1w2@privaterelay.appleid.com", isPrivate: .bool(true))
        #expect(reply["isNewUser"] == true && reply["emailVerified"] == true)
        let idToken = try #require(reply["idToken"]?.stringValue)
        let user = try #require(await gw.lookup(idToken)["users"]?.arrayValue?.first)
        #expect(user["email"] == "q1w2@privaterelay.appleid.com" && user["emailVerified"] == true)
    }

    @Test("email_verified may be a string or a boolean")
    func verifiedForms() async throws {
        let gw = try await TestGateway.withApple(apple)
        for (index, form) in [JSONValue.string("true"), .bool(true)].enumerated() {
            let nonce = "nonce-verified-form-\(index)-0123"
            let token = gw.appleToken(sub: "v\(index)", nonce: nonce, email: "v\(index)@example.com", emailVerified: form)
            #expect(await gw.signInWithApple(token: token, nonce: nonce)["emailVerified"] == true)
        }
        let nonce = "nonce-verified-false-0123"
        let token = gw.appleToken(sub: "vf", nonce: nonce, email: "vf@example.com", emailVerified: "false")
        #expect(await gw.signInWithApple(token: token, nonce: nonce)["emailVerified"] == false)
    }

    @Test("link -> FEDERATED_USER_ID_ALREADY_LINKED -> sign in with the updated credential (pending token)")
    func credentialAlreadyInUse() async throws {
        let gw = try await TestGateway.withApple(apple)
        let owner = await gw.signInWithApple(sub: "apple-owner")
        let anonymous = await gw.signUpAnonymously()
        let nonce = "nonce-link-conflict-0123456789"
        let token = gw.appleToken(sub: "apple-owner", nonce: nonce)
        let conflict = await gw.signInWithApple(token: token, nonce: nonce, idToken: anonymous["idToken"]?.stringValue,
                                                returnIdpCredential: true)
        #expect(conflict.status == 200 && conflict["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(conflict["oauthIdToken"] == .string(token) && conflict["idToken"] == nil)
        let pending = try #require(conflict["pendingToken"]?.stringValue)
        // The original credential cannot be replayed: its nonce is spent.
        #expect(await gw.signInWithApple(token: token, nonce: nonce).error?.contains("Duplicate credential") == true)
        let path = "\(TestGateway.v1)/accounts:signInWithIdp"
        let signedIn = await gw.post(path, ["requestUri": "http://localhost", "postBody": "providerId=apple.com",
                                            "pendingToken": .string(pending), "returnSecureToken": true])
        #expect(signedIn.status == 200 && signedIn["localId"] == owner["localId"])
        let plain = await gw.signInWithApple(sub: "apple-owner", idToken: anonymous["idToken"]?.stringValue)
        #expect(plain.error == "FEDERATED_USER_ID_ALREADY_LINKED")
    }

    @Test("an anonymous user links Apple and keeps its localId")
    func upgradeAnonymous() async throws {
        let gw = try await TestGateway.withApple(apple)
        let anonymous = await gw.signUpAnonymously()
        let linked = await gw.signInWithApple(sub: "apple-new", user: #"{"name":{"firstName":"Lin"}}"#,
                                              idToken: anonymous["idToken"]?.stringValue)
        #expect(linked.status == 200 && linked["localId"] == anonymous["localId"])
        #expect(try await displayName(gw, linked) == "Lin")
    }
}
