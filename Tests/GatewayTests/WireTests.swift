import AuthCore
import Foundation
import Testing
@testable import Gateway
import WireFormats

@Suite("wire layer: keys, errors, CORS, legacy paths, update")
struct WireTests {
    @Test("missing API key is 403 PERMISSION_DENIED in Google's envelope")
    func missingKey() async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.post("\(TestGateway.v1)/accounts:signUp", [:], key: nil)
        #expect(reply.status == 403)
        #expect(reply.json == ["error": ["code": 403, "message": "The request is missing a valid API key.",
                                         "errors": [["message": "The request is missing a valid API key.",
                                                     "reason": "forbidden", "domain": "global"]],
                                         "status": "PERMISSION_DENIED"]])
    }

    @Test("with a configured key list, other keys are refused and the header form works")
    func keyList() async throws {
        let gw = try await TestGateway.make { $0.apiKeys = ["good"] }
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", [:], key: "bad").status == 400)
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", [:], key: "bad").json["error"]?["errors"]?.arrayValue?.first?["reason"] == "keyInvalid")
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", [:], key: "good").status == 200)
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", [:], key: nil, headers: [("X-Goog-Api-Key", "good")]).status == 200)
    }

    @Test("business errors carry the Firebase code in message and have no status key")
    func businessEnvelope() async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.post("\(TestGateway.v1)/accounts:lookup", [:])
        #expect(reply.json == ["error": ["code": 400, "message": "MISSING_ID_TOKEN",
                                         "errors": [["message": "MISSING_ID_TOKEN", "reason": "invalid", "domain": "global"]]]])
    }

    @Test("malformed bodies and wrong types are 400 INVALID_ARGUMENT", arguments: [
        "{", "[1]", "\"x\"", "{\"idToken\":{}}", "{\"idToken\":[1,{}]}", "{\"idToken\":true}",
    ])
    func badBodies(_ body: String) async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.send("POST", "\(TestGateway.v1)/accounts:lookup?key=k", body: body)
        #expect(reply.status == 400)
        #expect(reply.json["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(reply.error?.hasPrefix("Invalid JSON payload received.") == true)
    }

    @Test("unknown routes and wrong methods are 404 in Google's shape")
    func notFound() async throws {
        let gw = try await TestGateway.make()
        for (method, path) in [("GET", "/nope"), ("GET", "\(TestGateway.v1)/accounts:signUp"), ("POST", "/healthz")] {
            let reply = await gw.send(method, path)
            #expect(reply.status == 404)
            #expect(reply.json["error"]?["status"] == "NOT_FOUND")
        }
    }

    @Test("admin routes: Bearer owner only from listed networks; configured tokens anywhere; others 401")
    func adminCredentials() async throws {
        let gw = try await TestGateway.make {
            $0.adminTokens = ["a-long-admin-token-123"]
            $0.trustedAdminNetworks = ["127.0.0.0/8"]
        }
        let path = "\(gw.adminPath)/accounts:lookup"
        #expect(await gw.post(path, ["localId": ["x"]], key: nil, headers: [("Authorization", "Bearer owner")]).status == 200)
        #expect(await gw.post(path, ["localId": ["x"]], key: nil, headers: [("Authorization", "bEArEr OWNER")]).status == 200)
        let remote = await gw.post(path, ["localId": ["x"]], key: nil, headers: [("Authorization", "Bearer owner")], from: "203.0.113.9")
        #expect(remote.status == 401 && remote.json["error"]?["status"] == "UNAUTHENTICATED")
        #expect(await gw.post(path, [:], key: nil, headers: [("Authorization", "Bearer a-long-admin-token-123")], from: "203.0.113.9").status == 200)
        #expect(await gw.post(path, [:], key: nil, headers: [("Authorization", "Bearer nope")]).status == 401)
        #expect(await gw.post(path, [:], key: nil).status == 401)
        #expect(await gw.post(path, [:], key: "k").error == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    }

    @Test("Bearer owner through a reverse proxy is never admin, even when the proxy is on a listed network")
    func ownerThroughProxy() async throws {
        let gw = try await TestGateway.make {
            $0.trustedProxies = ["127.0.0.1"]
            $0.trustedAdminNetworks = ["127.0.0.0/8"]
        }
        let path = "\(gw.adminPath)/accounts:lookup"
        let owner = [("Authorization", "Bearer owner")]
        #expect(await gw.post(path, ["localId": ["x"]], key: nil, headers: owner).status == 401)
        #expect(await gw.post(path, ["localId": ["x"]], key: nil, headers: owner + [("X-Forwarded-For", "203.0.113.9")]).status == 401)
        let direct = try await TestGateway.make { $0.trustedAdminNetworks = ["127.0.0.0/8"] }
        #expect(await direct.post("\(direct.adminPath)/accounts:lookup", ["localId": ["x"]], key: nil,
                                  headers: owner + [("Forwarded", "for=203.0.113.9")]).status == 401)
        #expect(await direct.post("\(direct.adminPath)/accounts:lookup", ["localId": ["x"]], key: nil, headers: owner).status == 200)
    }

    @Test("profile fields are bounded: too long from a client is 400, from a provider it is cut")
    func profileLimits() async throws {
        let gw = try await TestGateway.make()
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let long = String(repeating: "n", count: ProfileLimits.displayName + 1)
        let reply = await gw.post("\(TestGateway.v1)/accounts:update", ["idToken": .string(idToken), "displayName": .string(long)])
        #expect(reply.status == 400 && reply.json["error"]?["status"] == "INVALID_ARGUMENT")
        let photo = String(repeating: "p", count: ProfileLimits.photoUrl + 1)
        #expect(await gw.post("\(TestGateway.v1)/accounts:update", ["idToken": .string(idToken), "photoUrl": .string(photo)]).status == 400)
        let signedIn = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": "http://localhost",
            "postBody": .string("providerId=test.example&secret=open-sesame&sub=longname&name=" + long)])
        #expect(signedIn.status == 200)
        let signedInToken = try #require(signedIn["idToken"]?.stringValue)
        let user = try #require(await gw.lookup(signedInToken)["users"]?.arrayValue?.first)
        #expect(user["displayName"]?.stringValue?.count == ProfileLimits.displayName)
    }

    @Test("a NUL character is refused from a client (400) and dropped from a provider, on every backend")
    func nulCharacters() async throws {
        let gw = try await TestGateway.make()
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let reply = await gw.post("\(TestGateway.v1)/accounts:update",
                                  ["idToken": .string(idToken), "displayName": "Ada\u{0}Lovelace"])
        #expect(reply.status == 400 && reply.json["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(reply.error?.contains("display_name") == true)
        let listed = await gw.post("\(TestGateway.v1)/accounts:update",
                                   ["idToken": .string(idToken), "deleteAttribute": ["PHOTO_URL", "x\u{0}"]])
        #expect(listed.status == 400)
        let signedIn = await gw.post("\(TestGateway.v1)/accounts:signInWithIdp", [
            "requestUri": "http://localhost",
            "postBody": .string("providerId=test.example&secret=open-sesame&sub=nul&name=Ada%00Lovelace")])
        let token = try #require(signedIn["idToken"]?.stringValue)
        let user = try #require(await gw.lookup(token)["users"]?.arrayValue?.first)
        #expect(user["displayName"]?.stringValue == "AdaLovelace")
    }

    @Test("per-client limits key IPv6 clients by their /64")
    func ipv6Limits() async throws {
        #expect(NetworkRange.limitKey(for: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(NetworkRange.limitKey(for: "::ffff:10.1.2.3") == "10.1.2.3")
        #expect(NetworkRange.limitKey(for: "192.0.2.7") == "192.0.2.7")
        let gw = try await TestGateway.make { $0.setPluginValue("anonymous.signUpsPerIPPerHour", 2) }
        #expect(await gw.signUpAnonymously(from: "2001:db8:1:2::1").status == 200)
        #expect(await gw.signUpAnonymously(from: "2001:db8:1:2::2").status == 200)
        #expect(await gw.signUpAnonymously(from: "2001:db8:1:2:ffff::3").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await gw.signUpAnonymously(from: "2001:db8:1:3::1").status == 200)
    }

    @Test("admin lookup omits users when nothing matches and de-duplicates matches")
    func adminLookup() async throws {
        let gw = try await TestGateway.make()
        let localId = try #require(await gw.signUpAnonymously()["localId"]?.stringValue)
        #expect(await gw.admin("lookup", ["localId": ["nobody"]]).json == ["kind": "identitytoolkit#GetAccountInfoResponse"])
        let found = await gw.admin("lookup", ["localId": [.string(localId), .string(localId)]])
        #expect(found["users"]?.arrayValue?.count == 1)
        #expect(await gw.admin("delete", ["localId": .string(localId)]).status == 200)
        #expect(await gw.admin("delete", ["localId": .string(localId)]).error == "USER_NOT_FOUND")
    }

    @Test("update: null and deleteAttribute remove profile fields; photoURL is accepted; no tokens returned")
    func update() async throws {
        let gw = try await TestGateway.make()
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let path = "\(TestGateway.v1)/accounts:update"
        let set = await gw.post(path, ["idToken": .string(idToken), "displayName": "Bob", "photoURL": "https://p/x.png", "deleteAttribute": nil, "returnSecureToken": true])
        #expect(set["displayName"] == "Bob" && set["photoUrl"] == "https://p/x.png")
        #expect(set["idToken"] == nil)
        let cleared = await gw.post(path, ["idToken": .string(idToken), "displayName": nil, "deleteAttribute": ["PHOTO_URL"]])
        #expect(cleared["displayName"] == nil && cleared["photoUrl"] == nil && cleared.status == 200)
        #expect(await gw.post(path, ["idToken": .string(idToken), "customAttributes": "{}"]).error == "INSUFFICIENT_PERMISSION")
    }

    @Test("admin custom claims are validated and appear in refreshed tokens")
    func customClaims() async throws {
        let gw = try await TestGateway.make()
        let signUp = await gw.signUpAnonymously()
        let localId = try #require(signUp["localId"]?.stringValue)
        #expect(await gw.admin("update", ["localId": .string(localId), "customAttributes": "{\"sub\":1}"]).error == "FORBIDDEN_CLAIM : sub")
        #expect(await gw.admin("update", ["localId": .string(localId), "customAttributes": "[1]"]).error == "INVALID_CLAIMS")
        let big = "{\"a\":\"" + String(repeating: "x", count: 1000) + "\"}"
        #expect(await gw.admin("update", ["localId": .string(localId), "customAttributes": .string(big)]).error == "CLAIMS_TOO_LARGE")
        #expect(await gw.admin("update", ["localId": .string(localId), "customAttributes": "{\"role\":\"admin\"}"]).status == 200)
        let refreshed = await gw.refresh(try #require(signUp["refreshToken"]?.stringValue))
        #expect(TestGateway.claims(try #require(refreshed["id_token"]?.stringValue))["role"] == "admin")
    }

    @Test("legacy v3 relyingparty names reach the same handlers")
    func legacyPaths() async throws {
        let gw = try await TestGateway.make()
        let signUp = await gw.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser", ["returnSecureToken": true])
        let idToken = try #require(signUp["idToken"]?.stringValue)
        let info = await gw.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo", ["idToken": .string(idToken)])
        #expect(info["users"]?.arrayValue?.count == 1)
    }

    @Test("CORS preflight reflects origin and headers; responses carry the origin")
    func cors() async throws {
        let gw = try await TestGateway.make()
        let preflight = await gw.send("OPTIONS", "\(TestGateway.v1)/accounts:signUp", headers: [
            ("Origin", "https://app.example"), ("Access-Control-Request-Headers", "content-type,x-client-version"),
            ("Access-Control-Request-Private-Network", "true")])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "https://app.example")
        #expect(preflight.headers["access-control-allow-headers"] == "content-type,x-client-version")
        #expect(preflight.headers["access-control-allow-private-network"] == "true")
        let reply = await gw.post("\(TestGateway.v1)/accounts:signUp", [:], headers: [("Origin", "https://app.example")])
        #expect(reply.headers["access-control-allow-origin"] == "https://app.example")
    }

    @Test("published keys: x509 map and JWKS list the signing kid, with max-age")
    func publishedKeys() async throws {
        let gw = try await TestGateway.make()
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let kid = try #require(try CompactJWSHeader.kid(idToken))
        let x509 = await gw.send("GET", Routes.x509Path)
        #expect(x509.json[kid]?.stringValue?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
        #expect(x509.headers["cache-control"]?.contains("max-age=3600") == true)
        let jwks = await gw.send("GET", Routes.jwksPath)
        #expect(jwks["keys"]?.arrayValue?.first?["kid"] == .string(kid))
        let discovery = await gw.send("GET", "/securetoken.google.com/test-project/.well-known/openid-configuration",
                                      headers: [("Host", "gw.test:9099")])
        #expect(discovery["issuer"] == "https://securetoken.google.com/test-project")
        #expect(discovery["jwks_uri"] == .string("http://gw.test:9099" + Routes.jwksPath))
    }

    @Test("with the gateway's own URL as issuer, tokens carry it and discovery is served under its path")
    func ownIssuer() async throws {
        let gw = try await TestGateway.make { $0.issuer = "https://auth.example.com/gh"; $0.publicURL = "https://auth.example.com" }
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        #expect(TestGateway.claims(idToken)["iss"] == "https://auth.example.com/gh")
        let discovery = await gw.send("GET", "/gh/.well-known/openid-configuration")
        #expect(discovery["issuer"] == "https://auth.example.com/gh")
        #expect(discovery["jwks_uri"] == .string("https://auth.example.com" + Routes.jwksPath))
        #expect(await gw.lookup(idToken).status == 200)
    }

    @Test("anonymous sign-up can be disabled and is rate-limited per client IP")
    func anonymousLimits() async throws {
        let disabled = try await TestGateway.make { $0.setPluginValue("anonymous.enabled", false) }
        #expect(await disabled.signUpAnonymously().error == "ADMIN_ONLY_OPERATION")
        let limited = try await TestGateway.make { $0.setPluginValue("anonymous.signUpsPerIPPerHour", 2) }
        #expect(await limited.signUpAnonymously().status == 200)
        #expect(await limited.signUpAnonymously().status == 200)
        #expect(await limited.signUpAnonymously().error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await limited.signUpAnonymously(from: "10.0.0.2").status == 200)
        limited.time.advance(seconds: 3600)
        #expect(await limited.signUpAnonymously().status == 200)
    }

    @Test("logs carry request ids and never tokens")
    func logs() async throws {
        let gw = try await TestGateway.make()
        let signUp = await gw.signUpAnonymously()
        let idToken = try #require(signUp["idToken"]?.stringValue)
        let refreshToken = try #require(signUp["refreshToken"]?.stringValue)
        _ = await gw.lookup(idToken)
        _ = await gw.refresh(refreshToken)
        let lines = gw.logs.contents
        #expect(lines.count == 3)
        for line in lines {
            #expect(!line.contains(idToken) && !line.contains(refreshToken) && !line.contains("test-key"))
            #expect((try? JSONParser.parse(line))?["request.id"]?.stringValue?.count == 16)
        }
    }
}

enum CompactJWSHeader {
    static func kid(_ token: String) throws -> String? {
        let header = token.split(separator: ".")[0]
        return try JSONParser.parse(Base64URL.decode(String(header)) ?? [])["kid"]?.stringValue
    }
}

import Crypto

@Suite("Input bounds that keep every backend alike")
struct InputBoundsTests {
    @Test("a chosen localId over 128 characters, a malformed phone number and an unusable federated id are 4xx")
    func bounds() async throws {
        let gw = try await TestGateway.make()
        let adminSignUp = { (body: JSONValue) in
            await gw.post("\(TestGateway.v1)/accounts:signUp", body, key: nil, headers: TestGateway.adminHeaders)
        }
        let long = await adminSignUp(["localId": .string(String(repeating: "L", count: 129))])
        #expect(long.status == 400)
        #expect(long.error?.contains("local_id") == true)
        #expect(await adminSignUp(["localId": .string(String(repeating: "L", count: 128))]).status == 200)
        let user = await gw.signUpAnonymously()
        for phone in ["+1" + String(repeating: "5", count: 15), "+0123", "12345678", "+1 555 0100"] {
            #expect(await gw.admin("update", ["localId": user["localId"] ?? .null, "phoneNumber": .string(phone)]).error
                    == "INVALID_PHONE_NUMBER : Invalid format.", "\(phone)")
        }
        #expect(await gw.admin("update", ["localId": user["localId"] ?? .null, "phoneNumber": "+15555550100"]).status == 200)
        let huge = await gw.signInWithIdp(sub: String(repeating: "s", count: 256))
        #expect(huge.error?.hasPrefix("INVALID_IDP_RESPONSE : The identity provider's user id") == true)
        #expect(try await gw.store.read { try $0.userCount() } == 2, "nothing stored for the refused identity")
    }
}
