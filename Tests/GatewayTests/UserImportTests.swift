import AuthCore
import Crypto
import Foundation
import ProviderEmail
@testable import Gateway
import Storage
import Testing
import WireFormats

/// `accounts:batchCreate` and `uploadAccount`: Firebase's import, with per-user errors, whole-request checks and
/// sign-in with the imported hashes (which are then replaced with the gateway's own).
@Suite("User import (batchCreate)")
struct UserImportTests {
    static let scryptRequest: JSONObject = [
        "hashAlgorithm": "SCRYPT",
        "signerKey": "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
        "saltSeparator": "Bw==", "rounds": 8, "memoryCost": 14,
    ]

    @Test("the published Firebase scrypt vector imports (URL-safe base64), signs in, and is rehashed to the default")
    func firebaseScryptImport() async throws {
        let gw = try await TestGateway.withEmail()
        var body = Self.scryptRequest
        body["users"] = [[
            "localId": "imp1", "email": "Imp1@Example.com", "displayName": "Imp", "phoneNumber": "+15555550111",
            "emailVerified": true, "customAttributes": "{\"tier\": \"gold\"}",
            "createdAt": 1_600_000_000_000, "lastLoginAt": "1600000001000",
            "passwordHash": "lSrfV15cpx95_sZS2W9c9Kp6i_LVgQNDNC_qzrCnh1SAyZvqmZqAjTdn3aoItz-VHjoZilo78198JAdRuid5lQ==",
            "salt": "42xEC-ixf3L2lw==",
            "providerUserInfo": [["rawId": "g-1", "providerId": "google.com", "email": "imp1@gmail.com"],
                                 ["rawId": "imp1@example.com", "providerId": "password"]],
        ]]
        let reply = await gw.admin("batchCreate", .object(body))
        #expect(reply.json == ["kind": "identitytoolkit#UploadAccountResponse", "error": []])
        let user = try #require(try await gw.store.read { try $0.user(localId: "imp1") })
        #expect(user.email == "imp1@example.com" && user.emailVerified && user.phoneNumber == "+15555550111")
        #expect(user.customAttributes == "{\"tier\": \"gold\"}" && user.createdAt == 1_600_000_000_000)
        #expect(user.lastLoginAt == 1_600_000_001_000)
        #expect(user.password?.algorithm == "FIREBASE_SCRYPT")
        let identities = try await gw.store.read { try $0.identities(localId: "imp1") }
        #expect(identities.map(\.providerId) == ["google.com"])

        #expect(await gw.signIn("imp1@example.com", "user1passwore").error == "INVALID_PASSWORD")
        #expect(await gw.signIn("imp1@example.com", "user1password").status == 200)
        let rehashed = try await gw.store.read { try $0.user(localId: "imp1") }
        #expect(rehashed?.password?.algorithm == ScryptPasswordHasher.algorithm)
        #expect(await gw.signIn("imp1@example.com", "user1password").status == 200)
    }

    @Test("HMAC, digest, PBKDF2 and bcrypt imports sign in with the original password")
    func otherAlgorithms() async throws {
        let gw = try await TestGateway.withEmail()
        let cases: [(JSONObject, String, String)] = [
            (["hashAlgorithm": "HMAC_SHA256", "signerKey": .string(Base64.encode(Array("signer-key".utf8)))],
             "WRvlIcViO1cnOOb80Tz81yGtTf79AMz3I1LFtYwz7Hc=", "NaCl-salt"),
            (["hashAlgorithm": "MD5", "rounds": 0], "MGI0MjQ2OWE3NGMzNzllZmRlYTI1ZmViMjhkM2ZlNTQ=", "NaCl-salt"),
            (["hashAlgorithm": "SHA256", "rounds": 1, "passwordHashOrder": "PASSWORD_AND_SALT"],
             "HgbbL9SRTXKVwjFlFCVjV1Uvbj3AOPxHXAI4XKWHrmI=", "NaCl-salt"),
            (["hashAlgorithm": "PBKDF2_SHA256", "rounds": 1000],
             "8GgLOauGHBHN5T42RKUyaja0mZxgcCvctsjbYuP7E8a4GPga2U2t/Ft9n878x9LZtx7hFXm05Fo7XhDX2hV+9A==", "NaCl-salt"),
            (["hashAlgorithm": "BCRYPT"],
             Base64.encode(Array("$2b$04$3cBelGwWDgTqIdxSVKWjpOvYpqXR2MeR9mKEF0w7z8pyCIAQdhseS".utf8)), ""),
        ]
        for (index, (options, hash, salt)) in cases.enumerated() {
            var body = options
            body["users"] = [["localId": .string("u\(index)"), "email": .string("u\(index)@example.com"),
                              "passwordHash": .string(hash), "salt": .string(Base64.encode(Array(salt.utf8)))]]
            #expect(await gw.admin("batchCreate", .object(body))["error"] == [], "\(options)")
            #expect(await gw.signIn("u\(index)@example.com", "correct horsf").error == "INVALID_PASSWORD", "\(options)")
            #expect(await gw.signIn("u\(index)@example.com", "correct horse").status == 200, "\(options)")
        }
    }

    @Test("per-user errors: the others are imported; Firebase's messages and the index of each")
    func perUserErrors() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.admin("batchCreate", ["users": [["localId": "taken", "email": "taken@example.com"],
                                                      ["localId": "owner", "providerUserInfo": [["providerId": "github.com", "rawId": "42"]]]]])
        let reply = await gw.admin("batchCreate", ["users": [
            ["localId": "ok1", "email": "ok1@example.com"],
            ["email": "nobody@example.com"],
            ["localId": "bad-email", "email": "not-an-email"],
            ["localId": "bad-claims", "customAttributes": "{\"sub\": \"x\"}"],
            ["localId": "taken"],
            ["localId": "email-used", "email": "TAKEN@example.com"],
            ["localId": "raw-used", "providerUserInfo": [["providerId": "github.com", "rawId": "42"]]],
            ["localId": "mfa", "mfaInfo": [["phoneInfo": "+15555550100"]]],
            ["localId": "hash-no-algo", "passwordHash": "YWJj"],
            ["localId": "bad-phone", "phoneNumber": "555"],
            ["localId": "ok2", "disabled": true],
        ]])
        let bcrypt = await gw.admin("batchCreate", ["hashAlgorithm": "BCRYPT", "users": [
            ["localId": "slow", "passwordHash": .string(Base64.encode(Array("$2b$20$3cBelGwWDgTqIdxSVKWjpOvYpqXR2MeR9mKEF0w7z8pyCIAQdhseS".utf8)))],
            ["localId": "notbcrypt", "passwordHash": "YWJj"]]])
        #expect(bcrypt["error"]?.arrayValue?.map { $0["message"]?.stringValue ?? "" }
            == ["bcrypt cost 20 is above 16", "passwordHash is not a bcrypt hash ($2a$, $2b$ or $2y$)"])
        #expect(reply.status == 200)
        let errors = reply["error"]?.arrayValue?.map { ($0["index"]?.intValue ?? -1, $0["message"]?.stringValue ?? "") }
        #expect(errors?.map(\.0) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(errors?.map(\.1) == [
            "localId is missing", "email is invalid", "Custom claims provided include a reserved claim.",
            "localId belongs to an existing account - can not overwrite.", "email exists in other account in database",
            "raw id exists in other account in database",
            "mfaInfo is not supported by this gateway yet: the user was not imported",
            "passwordHash needs a hashAlgorithm", "phone number format is invalid",
        ])
        let ids = try await gw.store.read { try $0.users(afterLocalId: nil, limit: 20).map(\.localId) }
        #expect(ids == ["ok1", "ok2", "owner", "taken"])
        #expect(try await gw.store.read { try $0.user(localId: "ok2")?.disabled } == true)
        // allowOverwrite replaces the account with the same localId.
        let overwrite = await gw.admin("batchCreate", ["allowOverwrite": true, "users": [["localId": "taken", "displayName": "New"]]])
        #expect(overwrite["error"] == [])
        #expect(try await gw.store.read { try $0.user(localId: "taken") }?.displayName == "New")
        #expect(try await gw.store.read { try $0.user(localId: "taken") }?.email == nil)
    }

    @Test("allowOverwrite never loses the stored account when its replacement is refused")
    func overwriteRefusedKeepsTheStoredAccount() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.admin("batchCreate", ["users": [
            ["localId": "keep", "email": "keep@example.com", "displayName": "Kept",
             "providerUserInfo": [["providerId": "github.com", "rawId": "7"]]],
            ["localId": "other", "email": "other@example.com", "phoneNumber": "+15555550123",
             "providerUserInfo": [["providerId": "github.com", "rawId": "8"]]]]])
        let reply = await gw.admin("batchCreate", ["allowOverwrite": true, "users": [
            ["localId": "keep", "email": "other@example.com"],
            ["localId": "keep", "phoneNumber": "+15555550123"],
            ["localId": "keep", "providerUserInfo": [["providerId": "github.com", "rawId": "8"]]],
        ]])
        #expect(reply.status == 200)
        #expect(reply["error"]?.arrayValue?.map { $0["message"]?.stringValue ?? "" } == [
            "email exists in other account in database", "phone number exists in other account in database",
            "raw id exists in other account in database"])
        let kept = try await gw.store.read { try $0.user(localId: "keep") }
        #expect(kept?.email == "keep@example.com")
        #expect(kept?.displayName == "Kept")
        #expect(try await gw.store.read { try $0.identities(localId: "keep").map(\.federatedId) } == ["7"])
        // Its own values may be kept or replaced: an overwrite that conflicts with nobody else goes through.
        let own = await gw.admin("batchCreate", ["allowOverwrite": true, "users": [
            ["localId": "keep", "email": "keep@example.com", "providerUserInfo": [["providerId": "github.com", "rawId": "7"]]]]])
        #expect(own["error"] == [])
        #expect(try await gw.store.read { try $0.user(localId: "keep") }?.displayName == nil)
    }

    @Test("whole-request refusals: no users, too many, hash options Firebase refuses, duplicates in the batch")
    func wholeRequestErrors() async throws {
        let gw = try await TestGateway.withEmail()
        #expect(await gw.admin("batchCreate", ["users": []]).error == "MISSING_USER_ACCOUNT")
        let many = JSONValue.array((0...1000).map { ["localId": .string("u\($0)")] })
        #expect(await gw.admin("batchCreate", ["users": many]).error == "MAXIMUM_USER_COUNT_EXCEEDED")
        let one: JSONValue = [["localId": "x"]]
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "ARGON9"]).error?.hasPrefix("INVALID_HASH_ALGORITHM") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "SCRYPT", "signerKey": "YWJj", "rounds": 9, "memoryCost": 14])
            .error?.hasPrefix("INVALID_HASH_ROUNDS") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "SCRYPT", "signerKey": "YWJj", "rounds": 8, "memoryCost": 15])
            .error?.hasPrefix("INVALID_HASH_MEMORY_COST") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "HMAC_SHA256"]).error?.hasPrefix("INVALID_HASH_KEY") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "SHA1", "rounds": 0]).error?.hasPrefix("INVALID_HASH_ROUNDS") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "MD5", "rounds": 8193]).error?.hasPrefix("INVALID_HASH_ROUNDS") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "PBKDF2_SHA256", "rounds": 120_001]).error?.hasPrefix("INVALID_HASH_ROUNDS") == true)
        #expect(await gw.admin("batchCreate", ["users": one, "hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 4_194_304,
                                               "parallelization": 1, "blockSize": 8, "dkLen": 32]).error?.hasPrefix("INVALID_HASH_MEMORY_COST") == true)
        #expect(await gw.admin("batchCreate", ["users": [["localId": "d"], ["localId": "d"]]]).error == "DUPLICATE_LOCAL_ID : d")
        #expect(await gw.admin("batchCreate", ["sanityCheck": true, "users": [["localId": "e1", "email": "e@example.com"],
                                                                              ["localId": "e2", "email": "E@example.com"]]]).error
            == "DUPLICATE_EMAIL : e@example.com")
        #expect(await gw.admin("batchCreate", ["users": [["localId": "r1", "providerUserInfo": [["providerId": "x.com", "rawId": "1"]]],
                                                         ["localId": "r2", "providerUserInfo": [["providerId": "x.com", "rawId": "1"]]]]]).error
            == "DUPLICATE_RAW_ID : Provider id(x.com), Raw id(1)")
        #expect(try await gw.store.read { try $0.userCount() } == 0)
        // Only admins import.
        #expect(await gw.post("\(gw.adminPath)/accounts:batchCreate", ["users": one]).error?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
        #expect(await gw.post("\(gw.adminPath)/accounts:batchCreate", ["users": one], key: nil).status == 401)
        #expect(try await gw.store.read { try $0.userCount() } == 0)
    }

    @Test("the legacy uploadAccount takes the same body; a large batch is not cut by the default body limit")
    func legacyAndLargeBodies() async throws {
        let gw = try await TestGateway.withEmail()
        let padding = String(repeating: "p", count: 1000)
        let users = JSONValue.array((0..<1000).map { index in
            ["localId": .string("big\(index)"), "email": .string("big\(index)@example.com"),
             "customAttributes": .string("{\"role\":\"member\",\"pad\":\"\(padding.prefix(900))\"}"),
             "providerUserInfo": [["providerId": "github.com", "rawId": .string("gh\(index)"), "displayName": .string(padding)]]]
        })
        let reply = await gw.post("\(Routes.legacyV3)/uploadAccount", ["users": users], key: nil, headers: TestGateway.adminHeaders)
        #expect(reply.status == 200)
        #expect(reply["error"] == [])
        #expect(try await gw.store.read { try $0.userCount() } == 1000)
        #expect(try await gw.store.read { try $0.identities(localId: "big999").first?.federatedId } == "gh999")
    }

    @Test("a google.com identity given only by its federatedId URL is stored as the bare sub that sign-ins find")
    func googleFederatedIdURL() async throws {
        let gw = try await TestGateway.withEmail()
        let reply = await gw.admin("batchCreate", ["users": [
            ["localId": "g-url", "providerUserInfo": [["providerId": "google.com", "federatedId": "https://accounts.google.com/1170001"]]],
            ["localId": "g-raw", "providerUserInfo": [["providerId": "google.com", "rawId": "1170002",
                                                       "federatedId": "https://accounts.google.com/1170002"]]],
            ["localId": "g-empty", "providerUserInfo": [["providerId": "google.com", "federatedId": "https://accounts.google.com/"]]],
            ["localId": "other-url", "providerUserInfo": [["providerId": "oidc.corp", "federatedId": "https://idp.example/u/7"]]],
        ]])
        #expect(reply["error"]?.arrayValue?.map { $0["message"]?.stringValue ?? "" }
                == ["federatedId https://accounts.google.com/ names no Google account"])
        let ids = try await gw.store.read { tx in
            try ["g-url", "g-raw", "other-url"].map { try tx.identities(localId: $0).first?.federatedId }
        }
        #expect(ids == ["1170001", "1170002", "https://idp.example/u/7"], "only Google's URL form is Firebase's own")
    }

    @Test("admin update with second factors is refused, not ignored")
    func updateWithMfaRefused() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await gw.admin("batchCreate", ["users": [["localId": "m"]]])
        let reply = await gw.admin("update", ["localId": "m", "mfa": ["enrollments": [["phoneInfo": "+15555550100"]]]])
        #expect(reply.status == 400)
        #expect(reply.error?.contains("mfa") == true)
    }

    @Test("creating an account with second factors is refused, not ignored: admin create and signUp")
    func createWithMfaRefused() async throws {
        let gw = try await TestGateway.withEmail()
        let mfa: JSONValue = [["phoneInfo": "+15555550100"]]
        let created = await gw.post("\(gw.adminPath)/accounts", ["localId": "m", "email": "m@example.com", "mfaInfo": mfa],
                                    key: nil, headers: TestGateway.adminHeaders)
        #expect(created.status == 400)
        #expect(created.error?.contains("mfaInfo") == true)
        let signedUp = await gw.post("\(TestGateway.v1)/accounts:signUp", ["email": "n@example.com", "password": "secret-pw", "mfaInfo": mfa])
        #expect(signedUp.status == 400)
        #expect(try await gw.store.read { try $0.userCount() } == 0)
    }
}
