import AuthCore
import Crypto
import ProviderKit
@testable import ProviderOIDC
import Testing
import WireFormats

/// Where settings come from: the file's `oidc.providers`, the admin API's resource, and the built-in providers.
@Suite("OIDC settings")
struct SettingsTests {
    static let entry: JSONObject = ["providerId": "oidc.keycloak", "issuer": "https://kc.example/realms/main",
                                    "clientIds": ["web", "ios"], "responseType": "code"]

    func parse(_ entries: [JSONObject], environment: [String: String] = [:]) throws -> OIDCProviderFactory.Settings {
        try OIDCProviderFactory().settings(from: ConfigSection(["providers": .array(entries.map(JSONValue.object))], path: "oidc"),
                                           environment: environment)
    }

    func problem(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch { return "\(error)" }
    }

    @Test("an entry with its secret from the environment; tunables read; a secret is never inline")
    func fileEntry() throws {
        var entry = Self.entry
        entry["claims"] = ["subject": "preferred_id"]
        entry["emailLinking"] = ["verifiedEmails": true, "domains": ["Example.com"]]
        entry["nonce"] = ["required": true]
        entry["algorithms"] = ["ES256"]
        let settings = try parse([entry], environment: ["GATEHOUSE_OIDC_KEYCLOAK_CLIENT_SECRET": "from-env"]).providers[0]
        #expect(settings.clientSecret == "from-env" && settings.responseType == .code && settings.clientIds == ["web", "ios"])
        #expect(settings.claims.subject == "preferred_id" && settings.emailLinking.domains == ["example.com"])
        #expect(settings.nonceRequired && settings.algorithms == [.es256] && settings.enabled)
        entry["clientSecret"] = "inline"
        #expect(problem { try parse([entry]) } == "unknown config key \"oidc.providers[0].clientSecret\"")
    }

    @Test("a broken entry stops the start with the key to fix")
    func problems() {
        var bad = Self.entry
        bad["providerId"] = "keycloak"
        #expect(problem { try parse([bad]) }?.contains("oidc.providers[0].providerId") == true)
        bad = Self.entry
        bad["providerId"] = "oidc.KeyCloak"
        #expect(problem { try parse([bad]) }?.contains("may use only a-z") == true)
        bad = Self.entry
        bad["issuer"] = "kc.example"
        #expect(problem { try parse([bad]) }?.contains("oidc.providers[0].issuer must be an http(s) URL") == true)
        #expect(problem { try parse([Self.entry]) } == "oidc.providers[0].responseType code needs a client secret")
        bad = Self.entry
        bad["responseType"] = "idToken"
        bad["algorithms"] = ["HS256"]
        #expect(problem { try parse([bad]) }?.contains("may hold only \"RS256\" and \"ES256\"") == true)
        bad["algorithms"] = nil
        #expect(problem { try parse([bad, bad]) } == "oidc.providers names oidc.keycloak twice")
        bad["keyRefreshIntervalSeconds"] = 0
        #expect(problem { try parse([bad]) }?.contains("keyRefreshIntervalSeconds must be at least 1") == true)
    }

    @Test("the secret's environment variable is named after the provider")
    func secretVariable() {
        #expect(OIDCSettingsReader.secretVariable("oidc.my-idp.eu") == "GATEHOUSE_OIDC_MY_IDP_EU_CLIENT_SECRET")
    }
}

@Suite("oauthIdpConfigs resource format")
struct ResourceFormatTests {
    let sealer = Sealer(masterKey: .generate())
    static let resource: JSONObject = [
        "clientId": "web", "issuer": "https://idp.example", "displayName": "Idp", "enabled": true,
        "clientSecret": "top-secret", "responseType": ["code": true],
        "gatehouse": ["additionalClientIds": ["ios"], "emailLinking": ["verifiedEmails": true]],
    ]

    @Test("stored with the secret sealed (bound to the provider id), and read back unchanged")
    func roundTrip() throws {
        let stored = try OAuthIdpConfigFormat.stored(fromResource: Self.resource, providerId: "oidc.one", sealer: sealer)
        #expect(stored["clientSecret"] == nil && !JSONSerializer.string(.object(stored)).contains("top-secret"))
        let record = StoredProviderConfig(providerId: "oidc.one", config: stored)
        let settings = try OAuthIdpConfigFormat.settings(fromStored: record, sealer: sealer)
        #expect(settings.clientSecret == "top-secret" && settings.clientIds == ["web", "ios"] && settings.responseType == .code)
        #expect(settings.emailLinking.verifiedEmails && settings.displayName == "Idp")
        let shown = try OAuthIdpConfigFormat.resource(fromStored: record, sealer: sealer)
        #expect(shown["clientSecret"] == "top-secret" && shown["responseType"] == ["idToken": false, "code": true])
        // What GET shows, patched with nothing, is stored the same again.
        let again = try OAuthIdpConfigFormat.stored(fromResource: shown, providerId: "oidc.one", sealer: sealer)
        #expect(try OAuthIdpConfigFormat.settings(fromStored: StoredProviderConfig(providerId: "oidc.one", config: again),
                                                  sealer: sealer) == settings)
        let moved = StoredProviderConfig(providerId: "oidc.two", config: stored)
        #expect(throws: ConfigurationError.self) { try OAuthIdpConfigFormat.settings(fromStored: moved, sealer: sealer) }
    }

    @Test("what Firebase would refuse is refused, naming the field")
    func refusals() {
        func problem(_ change: (inout JSONObject) -> Void) -> String? {
            var resource = Self.resource
            change(&resource)
            do { _ = try OAuthIdpConfigFormat.stored(fromResource: resource, providerId: "oidc.one", sealer: sealer); return nil }
            catch { return "\(error)" }
        }
        #expect(problem { _ in } == nil)
        #expect(problem { $0["clientId"] = nil } == "clientId is required")
        #expect(problem { $0["issuer"] = "not a url" }?.hasPrefix("issuer must be an http(s) URL") == true)
        #expect(problem { $0["responseType"] = ["code": true, "idToken": true] } == "responseType: set idToken or code to true, not both")
        #expect(problem { $0["clientSecret"] = nil } == "responseType code needs a client secret")
        #expect(problem { $0["surprise"] = true } == "unknown config key \"surprise\"")
        #expect(problem { $0["sealedClientSecret"] = "AAAA" } == "unknown config key \"sealedClientSecret\"")
        #expect(problem { $0["gatehouse"] = ["claims": ["nickname": "x"]] } == "unknown config key \"gatehouse.claims.nickname\"")
        #expect(problem { $0["gatehouse"] = ["additionalClientIds": ["has space"]] }?.contains("clientId or gatehouse.additionalClientIds") == true)
        do {
            _ = try OAuthIdpConfigFormat.stored(fromResource: Self.resource, providerId: "oidc.Bad", sealer: sealer)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("may use only a-z"))
        }
    }
}

@Suite("Built-in providers on the OIDC code")
struct WellKnownProviderTests {
    func settings(_ preset: WellKnownProviderFactory.Preset, _ section: JSONObject,
                  environment: [String: String] = [:]) throws -> OIDCProviderSettings? {
        try WellKnownProviderFactory(preset).settings(from: ConfigSection(section, path: preset.section), environment: environment)
    }

    @Test("google.com: both issuers, Google's endpoints, gmail and hosted-domain email trust, overridable endpoints")
    func google() throws {
        #expect(try settings(.google, [:]) == nil, "off unless enabled")
        let google = try #require(try settings(.google, ["enabled": true, "clientIds": ["web.apps", "ios.apps"],
                                                         "endpoints": ["jwks": "http://127.0.0.1:1/certs"]],
                                               environment: ["GATEHOUSE_GOOGLE_CLIENT_SECRET": "gs"]))
        #expect(google.providerId == "google.com" && google.clientSecret == "gs" && google.responseType == .code)
        #expect(Set([google.issuer] + google.issuerAliases) == ["https://accounts.google.com", "accounts.google.com"])
        #expect(google.endpoints.jwks == "http://127.0.0.1:1/certs" && google.endpoints.tokenInfo == "https://oauth2.googleapis.com/tokeninfo")
        #expect(google.emailLinking == EmailLinking(verifiedEmails: true, domains: ["gmail.com", "googlemail.com"], hostedDomainClaim: "hd"))
        #expect(throws: ConfigurationError.self) { try settings(.google, ["enabled": true]) }
    }

    @Test("microsoft.com: one tenant's issuer, oid as the id; multi-tenant aliases refused")
    func microsoft() throws {
        let tenant = try #require(try settings(.microsoft, ["enabled": true, "tenant": "contoso-id", "clientIds": ["app"]]))
        #expect(tenant.issuer == "https://login.microsoftonline.com/contoso-id/v2.0" && tenant.claims.subject == "oid")
        let consumers = try #require(try settings(.microsoft, ["enabled": true, "tenant": "consumers", "clientIds": ["app"],
                                                               "authority": "http://127.0.0.1:9/"]))
        #expect(consumers.issuer == "http://127.0.0.1:9/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0")
        #expect(throws: ConfigurationError.self) { try settings(.microsoft, ["enabled": true, "tenant": "common", "clientIds": ["a"]]) }
        #expect(throws: ConfigurationError.self) { try settings(.microsoft, ["enabled": true, "clientIds": ["a"]]) }
    }
}
