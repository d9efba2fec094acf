import AuthCore
import Crypto
@testable import ProviderFacebook
import ProviderKit
import Testing
import WireFormats

@Suite("signed_request: each check refuses what it exists for")
struct SignedRequestTests {
    static let now: Int64 = 1_800_000_000
    static let secret = FakeFacebook.appSecret

    static func payload(_ changes: JSONObject = [:]) -> JSONObject {
        var payload: JSONObject = ["algorithm": "HMAC-SHA256", "issued_at": .int(now - 10), "user_id": "10001",
                                   "expires": .int(now + 3600)]
        for (key, value) in changes { payload[key] = value }
        return payload
    }

    static func verify(_ text: String, maxAge: Int64 = 3600) throws(SignedRequest.Failure) -> SignedRequest {
        try SignedRequest.verify(text, appSecret: secret, now: now, maxAgeSeconds: maxAge, clockSkewSeconds: 60)
    }

    static func failure(_ text: String, maxAge: Int64 = 3600) -> SignedRequest.Failure? {
        do {
            _ = try verify(text, maxAge: maxAge)
            return nil
        } catch {
            return error
        }
    }

    @Test("a request signed with the app secret passes and gives the user and time")
    func valid() throws {
        let verified = try Self.verify(FacebookFixture.signedRequest(Self.payload()))
        #expect(verified.userId == "10001" && verified.issuedAt == Self.now - 10)
        #expect(verified.payload["expires"]?.intValue == Self.now + 3600)
    }

    @Test("an independently computed vector: the signature is HMAC-SHA256 over the encoded payload, in base64url")
    func knownVector() throws {
        // Payload {"algorithm":"HMAC-SHA256","issued_at":1800000000,"user_id":"42"} signed with "secret" (computed
        // with Python's hmac module, independently of this code).
        let encoded = "eyJhbGdvcml0aG0iOiJITUFDLVNIQTI1NiIsImlzc3VlZF9hdCI6MTgwMDAwMDAwMCwidXNlcl9pZCI6IjQyIn0"
        let text = "sQh_rhg-oh51g_nzxxL_FUhvzaz5B28RiW5oMSseF3o." + encoded
        let verified = try SignedRequest.verify(text, appSecret: "secret", now: Self.now, maxAgeSeconds: 60, clockSkewSeconds: 0)
        #expect(verified.userId == "42")
    }

    @Test("signature: another secret, a tampered payload, or a truncated signature is refused")
    func signature() {
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(), secret: "someone-else")) == .badSignature)
        let genuine = FacebookFixture.signedRequest(Self.payload())
        let signature = genuine.split(separator: ".")[0]
        let forged = Base64URL.encode(JSONSerializer.bytes(.object(Self.payload(["user_id": "20002"]))))
        #expect(Self.failure("\(signature).\(forged)") == .badSignature)
        let truncated = Base64URL.encode(Array((Base64URL.decode(String(signature)) ?? []).dropLast()))
        #expect(Self.failure("\(truncated).\(genuine.split(separator: ".")[1])") == .badSignature)
    }

    @Test("algorithm: a correctly signed payload naming another algorithm is refused; the name's case is not")
    func algorithm() throws {
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["algorithm": "HMAC-SHA1"]))) == .algorithm("HMAC-SHA1"))
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["algorithm": nil]))) == .algorithm(""))
        #expect(try Self.verify(FacebookFixture.signedRequest(Self.payload(["algorithm": "hmac-sha256"]))).userId == "10001")
    }

    @Test("shape: not two base64url parts, or a payload that is not JSON, is malformed")
    func shape() {
        let genuine = FacebookFixture.signedRequest(Self.payload())
        for text in ["", "no-dot", genuine + ".extra", "!!!." + genuine.split(separator: ".")[1],
                     String(genuine.split(separator: ".")[0]) + ".", String(repeating: "a", count: 9000) + ".b"] {
            guard case .malformed? = Self.failure(text) else {
                Issue.record("\(text.prefix(40)) was not refused as malformed")
                continue
            }
        }
        let notJSON = Base64URL.encode(Array("not json".utf8))
        let mac = HMACSHA256.authenticate(key: Array(Self.secret.utf8), message: Array(notJSON.utf8))
        #expect(Self.failure(Base64URL.encode(mac) + "." + notJSON) == .malformed("signed_request payload is not a JSON object"))
    }

    @Test("user_id and issued_at are required")
    func requiredFields() {
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["user_id": nil])))
                == .malformed("signed_request has no user_id"))
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["user_id": ""])))
                == .malformed("signed_request has no user_id"))
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["issued_at": nil])))
                == .malformed("signed_request has no issued_at"))
    }

    @Test("freshness: older than the accepted age or issued in the future is refused; the skew is allowed")
    func freshness() {
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["issued_at": .int(Self.now - 3601)]))) == .tooOld)
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["issued_at": .int(Self.now - 3600)]))) == nil)
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["issued_at": .int(Self.now + 61)]))) == .issuedInFuture)
        #expect(Self.failure(FacebookFixture.signedRequest(Self.payload(["issued_at": .int(Self.now + 60)]))) == nil)
    }

    @Test("each failure is a refusal naming its check, answered as INVALID_IDP_RESPONSE")
    func refusals() {
        let cases: [(SignedRequest.Failure, CredentialCheck)] = [
            (.malformed("x"), .format), (.badSignature, .signature), (.algorithm("none"), .algorithm),
            (.issuedInFuture, .issuedAt), (.tooOld, .age)]
        for (failure, check) in cases {
            #expect(failure.refusal.check == check && failure.refusal.provider == .facebook)
            #expect(failure.refusal.error.code == .invalidIdpResponse)
        }
    }
}
