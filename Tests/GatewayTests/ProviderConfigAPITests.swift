import AuthCore
import Crypto
import OIDCTestSupport
import Storage
import Testing
@testable import Gateway
import WireFormats

/// The `oauthIdpConfigs` admin resource: what firebase-admin's `*_oidc_provider_config` calls send and read.
@Suite("oauthIdpConfigs admin API")
struct ProviderConfigAPITests {
    let fileIdp = FakeOIDCIssuer(base: "https://file-idp.test", clientId: "file-client")
    let apiIdp = FakeOIDCIssuer(base: "https://api-idp.test", clientId: "api-client")

    func gateway(store: (any UserStore)? = nil, masterKey: SymmetricKey = .generate()) async throws -> TestGateway {
        try await TestGateway.make(store: store, fetcher: IssuerRouter(issuers: [fileIdp, apiIdp]), masterKey: masterKey) { config in
            config.setPluginValue("oidc.providers", [TestGateway.oidcEntry("oidc.file", fileIdp)])
        }
    }

    var resource: JSONValue {
        ["clientId": .string(apiIdp.clientId), "issuer": .string(apiIdp.base), "displayName": "Api IdP", "enabled": true]
    }

    func signIn(_ gw: TestGateway, _ id: String, sub: String = "u1") async -> TestGateway.Reply {
        await gw.signInWithOIDC(id, token: FakeOIDCIssuer.sign(apiIdp.claims(sub: sub, now: gw.time.nowSeconds)))
    }

    @Test("create, get, patch, delete: a created provider signs in at once, a deleted one no longer")
    func lifecycle() async throws {
        let gw = try await gateway()
        #expect(await signIn(gw, "oidc.api").error?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
        let created = await gw.createIdpConfig("oidc.api", resource)
        #expect(created.status == 200)
        #expect(created["name"] == .string("projects/test-project/oauthIdpConfigs/oidc.api"))
        #expect(created["clientId"] == .string(apiIdp.clientId) && created["enabled"] == true)
        #expect(created["responseType"] == ["idToken": true, "code": false])
        #expect(await signIn(gw, "oidc.api").status == 200)

        let fetched = await gw.adminV2("GET", "\(gw.idpConfigsPath)/oidc.api")
        #expect(fetched.json == created.json)

        let patched = await gw.adminV2("PATCH", "\(gw.idpConfigsPath)/oidc.api?updateMask=enabled,displayName",
                                       ["enabled": false, "displayName": nil, "issuer": "https://ignored.test"])
        #expect(patched.status == 200 && patched["enabled"] == false && patched["displayName"] == nil)
        #expect(patched["issuer"] == .string(apiIdp.base), "fields outside the mask are untouched")
        #expect(await signIn(gw, "oidc.api").error == "OPERATION_NOT_ALLOWED")

        #expect(await gw.adminV2("DELETE", "\(gw.idpConfigsPath)/oidc.api").status == 200)
        #expect(await gw.adminV2("GET", "\(gw.idpConfigsPath)/oidc.api").error == "CONFIGURATION_NOT_FOUND : No oauthIdpConfigs entry oidc.api")
        #expect(await gw.adminV2("DELETE", "\(gw.idpConfigsPath)/oidc.api").error?.hasPrefix("CONFIGURATION_NOT_FOUND") == true)
        #expect(await signIn(gw, "oidc.api").error?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
    }

    @Test("the Gatehouse extension sets what Firebase has no field for; a client secret enables the code flow, sealed at rest")
    func extensionAndSecret() async throws {
        let gw = try await gateway()
        let created = await gw.createIdpConfig("oidc.api", [
            "clientId": "api-client", "issuer": .string(apiIdp.base), "enabled": true, "clientSecret": "s3cret",
            "responseType": ["code": true], "gatehouse": ["additionalClientIds": ["ios-client"], "claims": ["subject": "uid"]],
        ])
        #expect(created.status == 200 && created["clientSecret"] == "s3cret")
        #expect(created["gatehouse"]?["additionalClientIds"] == ["ios-client"] && created["gatehouse"]?["claims"]?["subject"] == "uid")
        let row = try await gw.store.read { tx in try tx.setting(ProviderDirectory.storedConfigsKey) } ?? ""
        #expect(row.contains("oidc.api") && !row.contains("s3cret"), "the secret is stored sealed")
        var claims = apiIdp.claims(aud: "ios-client", now: gw.time.nowSeconds)
        claims["uid"] = "mapped-7"
        let signedIn = await gw.signInWithOIDC("oidc.api", token: FakeOIDCIssuer.sign(claims))
        #expect(signedIn.status == 200 && signedIn["federatedId"] == "mapped-7")
        let start = await gw.post("\(TestGateway.v1)/accounts:createAuthUri", ["providerId": "oidc.api", "continueUri": "http://localhost/"])
        #expect(start["authUri"]?.stringValue?.contains("code_challenge_method=S256") == true)
    }

    @Test("providers from the file are listed and read, never changed; their id cannot be created")
    func fileIsReadOnly() async throws {
        let gw = try await gateway()
        let got = await gw.adminV2("GET", "\(gw.idpConfigsPath)/oidc.file")
        #expect(got.status == 200 && got["clientId"] == "file-client" && got["clientSecret"] == nil)
        let readOnly = "OPERATION_NOT_ALLOWED : oidc.file is set in the gateway's configuration file; change it there"
        #expect(await gw.adminV2("PATCH", "\(gw.idpConfigsPath)/oidc.file?updateMask=enabled", ["enabled": false]).error == readOnly)
        #expect(await gw.adminV2("DELETE", "\(gw.idpConfigsPath)/oidc.file").error == readOnly)
        #expect(await gw.createIdpConfig("oidc.file", resource).error == "CONFIGURATION_EXISTS : oidc.file already exists")
    }

    @Test("bad requests get Firebase-style 400s naming the problem")
    func refusals() async throws {
        let gw = try await gateway()
        #expect(await gw.adminV2("POST", gw.idpConfigsPath, resource).error == "INVALID_PROVIDER_ID : oauthIdpConfigId is required")
        #expect(await gw.createIdpConfig("saml.x", resource).error?.hasPrefix("INVALID_PROVIDER_ID") == true)
        #expect(await gw.createIdpConfig("oidc.UPPER", resource).error?.hasPrefix("INVALID_CONFIG") == true)
        #expect(await gw.createIdpConfig("oidc.x", ["clientId": "c"]).error == "INVALID_CONFIG : issuer is required")
        #expect(await gw.createIdpConfig("oidc.x", ["clientId": "c", "issuer": "https://i", "enabled": "yes"]).error
                == "INVALID_CONFIG : config key \"enabled\" must be true or false")
        #expect(await gw.createIdpConfig("oidc.x", resource).status == 200)
        let twice = await gw.createIdpConfig("oidc.x", resource)
        #expect(twice.status == 400 && twice.error == "CONFIGURATION_EXISTS : oidc.x already exists")
        #expect(await gw.adminV2("PATCH", "\(gw.idpConfigsPath)/oidc.x?updateMask=issuer", ["issuer": "nope"]).error?
            .hasPrefix("INVALID_CONFIG : issuer must be an http(s) URL") == true)
        #expect(await gw.adminV2("GET", "\(gw.idpConfigsPath)/oidc.x")["issuer"] == .string(apiIdp.base), "a refused patch changes nothing")
        let keyOnly = await gw.post(gw.idpConfigsPath, resource)
        #expect(keyOnly.status == 400 && keyOnly.error?.hasPrefix("INSUFFICIENT_PERMISSION") == true, "admin routes need admin credentials")
    }

    @Test("list pages in id order, file and stored together, with a next-page token while more follow")
    func paging() async throws {
        let gw = try await gateway()
        for name in ["e", "b", "d", "a"] { #expect(await gw.createIdpConfig("oidc.\(name)", resource).status == 200) }
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let query = "?pageSize=2" + (token.map { "&pageToken=\($0)" } ?? "")
            let page = await gw.adminV2("GET", gw.idpConfigsPath + query)
            seen += (page["oauthIdpConfigs"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue?.split(separator: "/").last.map(String.init) }
            token = page["nextPageToken"]?.stringValue
            pages += 1
        } while token != nil && pages < 10
        #expect(seen == ["oidc.a", "oidc.b", "oidc.d", "oidc.e", "oidc.file"] && pages == 3)
        #expect(await gw.adminV2("GET", gw.idpConfigsPath + "?pageSize=0")["oauthIdpConfigs"]?.arrayValue?.count == 5)
        #expect(await gw.adminV2("GET", gw.idpConfigsPath + "?pageSize=500")["nextPageToken"] == nil)
        let bad = await gw.adminV2("GET", gw.idpConfigsPath + "?pageSize=many")
        #expect(bad.status == 400 && bad.json["error"]?["status"] == "INVALID_ARGUMENT")
    }

    @Test("a second gateway on the same database serves a created provider after its refresh")
    func secondInstance() async throws {
        let store = InMemoryUserStore()
        let key = SymmetricKey.generate()
        let one = try await gateway(store: store, masterKey: key)
        let other = try await gateway(store: store, masterKey: key)
        #expect(await one.createIdpConfig("oidc.shared", resource).status == 200)
        #expect(await signIn(other, "oidc.shared").error?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true,
                "not before the other instance refreshed")
        try await other.app.services.providers.refresh(from: store)
        #expect(await signIn(other, "oidc.shared").status == 200)
        #expect(await other.adminV2("GET", "\(other.idpConfigsPath)/oidc.shared").status == 200, "the API reads the database")
    }
}
