import AuthCore
import Storage
import Testing
@testable import Gateway
import WireFormats

@Suite("admin API: create, batch delete, list, query, provider links")
struct AdminAccountTests {
    static func create(_ gw: TestGateway, _ body: JSONObject) async -> TestGateway.Reply {
        await gw.post("\(gw.adminPath)/accounts", .object(body), key: nil, headers: TestGateway.adminHeaders)
    }

    static func list(_ gw: TestGateway, _ query: String) async -> TestGateway.Reply {
        await gw.send("GET", "\(gw.adminPath)/accounts:batchGet?\(query)", headers: TestGateway.adminHeaders)
    }

    @Test("create takes a chosen uid, email, password, phone, profile and flags; the account then signs in")
    func createEverything() async throws {
        let gw = try await TestGateway.withEmail()
        let created = await Self.create(gw, ["localId": "uid-1", "email": "Ada@Example.com", "password": "secret1",
                                             "phoneNumber": "+15555550100", "displayName": "Ada", "photoUrl": "https://p/a.png",
                                             "emailVerified": true, "disabled": false])
        #expect(created.status == 200)
        #expect(created.json == ["kind": "identitytoolkit#SignupNewUserResponse", "localId": "uid-1",
                                 "email": "ada@example.com", "displayName": "Ada"])
        let user = try #require(await gw.admin("lookup", ["phoneNumber": ["+15555550100"]])["users"]?.arrayValue?.first)
        #expect(user["localId"] == "uid-1" && user["emailVerified"] == true && user["photoUrl"] == "https://p/a.png")
        #expect(user["lastLoginAt"] == nil)
        #expect(await gw.signIn("ada@example.com", "secret1")["localId"] == "uid-1")
    }

    @Test("create without fields makes an empty account with a generated uid; without an email it needs no email provider")
    func createEmpty() async throws {
        let gw = try await TestGateway.make()
        let created = await Self.create(gw, [:])
        let localId = try #require(created["localId"]?.stringValue)
        #expect(localId.count == 28)
        #expect(await Self.create(gw, ["phoneNumber": "+4930123456"]).status == 200)
        #expect(await gw.admin("lookup", ["localId": .string(localId)])["users"]?.arrayValue?.count == 1)
    }

    @Test("taken uid, email and phone are Firebase's codes; bad input is refused before anything is written")
    func createRefusals() async throws {
        let gw = try await TestGateway.withEmail()
        _ = await Self.create(gw, ["localId": "taken", "email": "ada@example.com", "phoneNumber": "+15555550100"])
        #expect(await Self.create(gw, ["localId": "taken"]).error == "DUPLICATE_LOCAL_ID")
        #expect(await Self.create(gw, ["email": "ADA@example.com"]).error == "EMAIL_EXISTS")
        #expect(await Self.create(gw, ["phoneNumber": "+15555550100"]).error == "PHONE_NUMBER_EXISTS")
        for phone in ["15555550100", "+1abc", "+", "+0123", "+1234567890123456"] {
            #expect(await Self.create(gw, ["phoneNumber": .string(phone)]).error == "INVALID_PHONE_NUMBER : Invalid format.")
        }
        #expect(await Self.create(gw, ["email": "nope"]).error == "INVALID_EMAIL")
        #expect(await Self.create(gw, ["password": "secret1"]).error == "MISSING_EMAIL")
        #expect(await Self.create(gw, ["email": "b@example.com", "password": "123"]).error?.hasPrefix("WEAK_PASSWORD") == true)
        #expect(await Self.create(gw, ["localId": .string(String(repeating: "u", count: 129))]).status == 400)
        #expect(await Self.create(gw, ["localId": ""]).status == 400)
        #expect(try await gw.store.read { try $0.userCount() } == 1)
    }

    @Test("admin update to a phone number another account holds is PHONE_NUMBER_EXISTS and changes nothing")
    func updateToTakenPhone() async throws {
        let gw = try await TestGateway.make()
        _ = await Self.create(gw, ["localId": "holder", "phoneNumber": "+15555550100"])
        _ = await Self.create(gw, ["localId": "other", "phoneNumber": "+15555550101", "displayName": "Before"])
        let taken = await gw.admin("update", ["localId": "other", "phoneNumber": "+15555550100", "displayName": "After"])
        #expect(taken.error == "PHONE_NUMBER_EXISTS")
        let other = try await gw.store.read { try $0.user(localId: "other") }
        #expect(other?.phoneNumber == "+15555550101" && other?.displayName == "Before", "nothing of the update was written")
        #expect(try await gw.store.read { try $0.user(localId: "holder")?.phoneNumber } == "+15555550100")
        #expect(await gw.admin("update", ["localId": "other", "phoneNumber": "+15555550101"]).status == 200, "its own number")
    }

    @Test("an API-key caller cannot choose a uid, and an ID token never goes with one")
    func uidIsAdminOnly() async throws {
        let gw = try await TestGateway.make()
        #expect(await gw.post("\(TestGateway.v1)/accounts:signUp", ["localId": "mine"]).error == "UNEXPECTED_PARAMETER : User ID")
        let token = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let reply = await gw.post("\(TestGateway.v1)/accounts:signUp", ["localId": "mine", "idToken": .string(token)],
                                  key: nil, headers: TestGateway.adminHeaders)
        #expect(reply.error == "UNEXPECTED_PARAMETER : User ID")
    }

    @Test("batch delete: disabled or forced accounts go, enabled ones are reported, unknown ids are ignored")
    func batchDelete() async throws {
        let gw = try await TestGateway.make()
        for (id, disabled) in [("a", false), ("b", true), ("c", false)] {
            _ = await Self.create(gw, ["localId": .string(id), "disabled": .bool(disabled)])
        }
        let reply = await gw.admin("batchDelete", ["localIds": ["a", "b", "ghost", "b"]])
        #expect(reply.json == ["errors": [["index": 0, "localId": "a",
                                          "message": "NOT_DISABLED : Disable the account before batch deletion."]]])
        #expect(try await gw.store.read { try $0.users(afterLocalId: nil, limit: 10).map(\.localId) } == ["a", "c"])
        #expect(await gw.admin("batchDelete", ["localIds": ["a", "c"], "force": true]).json == [:])
        #expect(try await gw.store.read { try $0.userCount() } == 0)
        #expect(await gw.admin("batchDelete", ["localIds": []]).error == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
        let tooMany = JSONValue.array((0...1000).map { .string("u\($0)") })
        #expect(await gw.admin("batchDelete", ["localIds": tooMany]).error == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    }

    @Test("batchGet pages by uid: a full page names the next, the last page does not")
    func batchGetPaging() async throws {
        let gw = try await TestGateway.make()
        for id in ["d", "a", "c", "b", "e"] { _ = await Self.create(gw, ["localId": .string(id)]) }
        let first = await Self.list(gw, "maxResults=2")
        #expect(first["kind"] == "identitytoolkit#DownloadAccountResponse")
        #expect(first["users"]?.arrayValue?.map { $0["localId"] } == ["a", "b"])
        #expect(first["nextPageToken"] == "b")
        let last = await Self.list(gw, "maxResults=3&nextPageToken=b")
        #expect(last["users"]?.arrayValue?.map { $0["localId"] } == ["c", "d", "e"])
        #expect(last["nextPageToken"] == "e")
        let empty = await Self.list(gw, "maxResults=3&nextPageToken=e")
        #expect(empty.json == ["kind": "identitytoolkit#DownloadAccountResponse"])
        #expect(await Self.list(gw, "")["users"]?.arrayValue?.count == 5)
        #expect(await Self.list(gw, "maxResults=ten").json["error"]?["status"] == "INVALID_ARGUMENT")
        // The legacy export takes the same parameters in its body.
        let legacy = await gw.post("\(Routes.legacyV3)/downloadAccount", ["maxResults": 2, "nextPageToken": "a"],
                                   key: nil, headers: TestGateway.adminHeaders)
        #expect(legacy["users"]?.arrayValue?.map { $0["localId"] } == ["b", "c"])
    }

    @Test("listing while accounts come and go lists every account that stays exactly once")
    func batchGetIsStableUnderChanges() async throws {
        let gw = try await TestGateway.make()
        let stable = (0..<30).map { String(format: "s%02d", $0) }
        for id in stable { _ = await Self.create(gw, ["localId": .string(id)]) }
        var seen: [String] = []
        var token: String?
        var round = 0
        repeat {
            let reply = await Self.list(gw, "maxResults=4" + (token.map { "&nextPageToken=\($0)" } ?? ""))
            seen += reply["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } ?? []
            token = reply["nextPageToken"]?.stringValue
            // Between pages: a new account before the cursor, one after it, and a transient one deleted again.
            _ = await Self.create(gw, ["localId": .string("a\(round)")])
            _ = await Self.create(gw, ["localId": .string("z\(round)")])
            _ = await Self.create(gw, ["localId": .string("s\(round)x")])
            _ = await gw.admin("delete", ["localId": .string("s\(round)x")])
            round += 1
        } while token != nil && round < 20  // 30 accounts in pages of 4 end within 10 rounds; a bound, not a hang
        #expect(token == nil, "the listing did not end")
        let stayed = seen.filter { stable.contains($0) }
        #expect(stayed == stable)
        #expect(Set(seen).count == seen.count)
    }

    @Test("query counts and pages by uid, ascending or descending, and narrows by email, uid or phone")
    func query() async throws {
        let gw = try await TestGateway.make()
        for (index, id) in ["a", "b", "c", "d", "e"].enumerated() {
            _ = await Self.create(gw, ["localId": .string(id), "email": .string("\(id)@x.io"),
                                       "phoneNumber": .string("+4930000000\(index)")])
        }
        func ids(_ reply: TestGateway.Reply) -> [JSONValue?] { reply["userInfo"]?.arrayValue?.map { $0["localId"] } ?? [] }
        let all = await gw.admin("query", [:])
        #expect(all["recordsCount"] == "5" && ids(all).count == 5)
        #expect(ids(await gw.admin("query", ["limit": 2, "offset": 1])) == ["b", "c"])
        #expect(ids(await gw.admin("query", ["order": "DESC", "limit": 2, "offset": 1])) == ["d", "c"])
        #expect(ids(await gw.admin("query", ["offset": 7])) == [])
        #expect(ids(await gw.admin("query", ["expression": [["email": "C@x.io"]]])) == ["c"])
        #expect(ids(await gw.admin("query", ["expression": [["userId": "e"]]])) == ["e"])
        #expect(ids(await gw.admin("query", ["expression": [["phoneNumber": "+49300000001"]]])) == ["b"])
        #expect(await gw.admin("query", ["expression": [["email": "zz@x.io"]]])["recordsCount"] == "0")
        #expect(await gw.admin("query", ["returnUserInfo": false]).json == ["recordsCount": "5"])
        let path = "\(TestGateway.v1)/projects/test-project:queryAccounts"
        #expect(await gw.post(path, ["limit": "1"], key: nil, headers: TestGateway.adminHeaders)["userInfo"]?.arrayValue?.count == 1)
        #expect(await gw.admin("query", ["sortBy": "NAME"]).status == 400)
        #expect(await gw.admin("query", ["limit": 501]).status == 400)
        #expect(await gw.admin("query", ["order": "SIDEWAYS"]).status == 400)
        #expect(await gw.admin("query", ["offset": 100_001]).status == 400)
    }

    @Test("linkProviderUserInfo attaches an identity as given, replaces the same provider's, and refuses another's")
    func linkProvider() async throws {
        let gw = try await TestGateway.make()
        _ = await Self.create(gw, ["localId": "u1"])
        _ = await Self.create(gw, ["localId": "u2"])
        let linked = await gw.admin("update", ["localId": "u1", "linkProviderUserInfo": [
            "providerId": "google.com", "rawId": "g-1", "email": "u1@gmail.com", "displayName": "U One"]])
        #expect(linked["providerUserInfo"]?.arrayValue?.first?["rawId"] == "g-1")
        let found = await gw.admin("lookup", ["federatedUserId": [["providerId": "google.com", "rawId": "g-1"]]])
        #expect(found["users"]?.arrayValue?.first?["localId"] == "u1")
        _ = await gw.admin("update", ["localId": "u1", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-2"]])
        let infos = await gw.admin("lookup", ["localId": ["u1"]])["users"]?.arrayValue?.first?["providerUserInfo"]?.arrayValue
        #expect(infos?.map { $0["rawId"] } == ["g-2"])
        #expect(await gw.admin("update", ["localId": "u2", "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-2"]])
            .error == "FEDERATED_USER_ID_ALREADY_LINKED")
        #expect(await gw.admin("update", ["localId": "u2", "linkProviderUserInfo": ["rawId": "x"]]).error == "MISSING_PROVIDER_ID")
        #expect(await gw.admin("update", ["localId": "u2", "linkProviderUserInfo": ["providerId": "x.com"]]).error == "MISSING_RAW_ID")
        #expect(await gw.admin("update", ["localId": "u2", "linkProviderUserInfo": ["providerId": "phone", "rawId": "+1"]])
            .error == "INVALID_PROVIDER_ID")
        // deleteProvider on the admin route removes it again.
        let unlinked = await gw.admin("update", ["localId": "u1", "deleteProvider": ["google.com"]])
        #expect(unlinked["providerUserInfo"]?.arrayValue == [])
    }

    @Test("the project-less v1 and legacy v3 forms act as the admin with an admin credential")
    func projectlessForms() async throws {
        let gw = try await TestGateway.make()
        let account = try TestServiceAccount.make()
        try await account.register(with: gw)
        let token = try #require(await gw.grant(assertion: try account.assertion(now: gw.nowSeconds))["access_token"]?.stringValue)
        let headers = [("Authorization", "Bearer \(token)")]
        let created = await gw.post("\(TestGateway.v1)/accounts:signUp", ["localId": "pl-1", "displayName": "P"], key: nil, headers: headers)
        #expect(created["localId"] == "pl-1" && created["idToken"] == nil)
        #expect(await gw.post("\(Routes.legacyV3)/setAccountInfo", ["localId": "pl-1", "disableUser": true], key: nil,
                              headers: headers).status == 200)
        let found = await gw.post("\(Routes.legacyV3)/getAccountInfo", ["localId": ["pl-1"]], key: nil, headers: headers)
        #expect(found["users"]?.arrayValue?.first?["disabled"] == true)
        #expect(await gw.post("\(TestGateway.v1)/accounts:delete", ["localId": "pl-1"], key: nil, headers: headers).status == 200)
        #expect(try await gw.store.read { try $0.userCount() } == 0)
    }

    @Test("an admin validSince before the epoch is refused and changes nothing (listings must stay readable)")
    func negativeValidSince() async throws {
        let gw = try await TestGateway.make()
        _ = await Self.create(gw, ["localId": "u1"])
        let reply = await gw.admin("update", ["localId": "u1", "validSince": -5])
        #expect(reply.status == 400 && reply.json["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(try await gw.store.read { try $0.user(localId: "u1")?.validSince } ?? -1 >= 0)
    }

    @Test("a user's own update may not link a provider by statement")
    func linkProviderIsAdminOnly() async throws {
        let gw = try await TestGateway.make()
        let token = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let reply = await gw.post("\(TestGateway.v1)/accounts:update", [
            "idToken": .string(token), "linkProviderUserInfo": ["providerId": "google.com", "rawId": "g-9"]])
        #expect(reply.error == "INSUFFICIENT_PERMISSION")
    }
}
