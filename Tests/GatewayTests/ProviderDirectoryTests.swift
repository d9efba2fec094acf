import AuthCore
import Crypto
import ProviderKit
import Storage
import Testing
@testable import Gateway
import WireFormats

/// A factory that builds providers from configurations stored in the database (as the generic OpenID Connect
/// factory does for providers created through the admin API).
struct StoredTestFactory: StoredProviderFactory {
    var section: String { "storedTest" }
    func settings(from section: ConfigSection, environment: [String: String]) throws -> Bool {
        try section.requireKnownKeys(["enabled"])
        return try section.bool("enabled") ?? true
    }
    func plugins(_ settings: Bool, context: ProviderContext) throws -> PluginSet { PluginSet() }
    func owns(_ providerId: String) -> Bool { providerId.hasPrefix("stored.") || providerId == "test.example" }
    func provider(fromStored record: StoredProviderConfig, settings: Bool, context: ProviderContext) throws -> any CredentialProvider {
        if record.config["broken"] == true { throw ConfigurationError("stored config \(record.providerId) is broken") }
        return TestIdentityProvider(id: ProviderID(record.providerId), isEnabled: settings)
    }
}

@Suite("Provider directory: configuration plus store")
struct ProviderDirectoryTests {
    static let factories: [any ProviderFactory] = ProviderRegistrations.factories + [StoredTestFactory()]

    func store(_ gw: TestGateway, _ id: String, _ config: JSONObject?) async throws {
        try await gw.store.write { tx in try ProviderDirectory.setStoredConfig(id, config, tx) }
    }

    @Test("a provider stored in the database is built on every instance sharing it, and removed again")
    func storedProviders() async throws {
        let shared = InMemoryUserStore()
        let key = SymmetricKey.generate()
        let one = try await TestGateway.make(store: shared, masterKey: key, factories: Self.factories)
        let two = try await TestGateway.make(store: shared, masterKey: key, factories: Self.factories)
        #expect(await one.signInWithIdp(sub: "s1", provider: "stored.a").error?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
        try await store(one, "stored.a", ["issuer": "https://a.example"])
        try await store(one, "stored.broken", ["broken": true])
        try await store(one, "test.example", [:])
        let skipped = try await one.app.services.providers.refresh(from: shared)
        #expect(Set(skipped.map(\.providerId)) == ["stored.broken", "test.example"],
                "a broken config and one shadowing a configured provider are skipped, not fatal")
        #expect(await one.signInWithIdp(sub: "s1", provider: "stored.a").status == 200)
        // The second instance sees it after its own refresh (every 5 s in a running gateway).
        #expect(await two.signInWithIdp(sub: "s2", provider: "stored.a").status == 400)
        try await two.app.services.providers.refresh(from: shared)
        #expect(await two.signInWithIdp(sub: "s2", provider: "stored.a").status == 200)
        try await store(two, "stored.a", nil)
        try await one.app.services.providers.refresh(from: shared)
        #expect(await one.signInWithIdp(sub: "s3", provider: "stored.a").status == 400)
        #expect(await one.signInWithIdp(sub: "s3").status == 200, "the configured provider is untouched")
    }

    @Test("two configured providers with one id stop the start, naming the id")
    func duplicateIds() async throws {
        await #expect(throws: ConfigurationError("two providers are configured with the id \"test.example\"; each provider id must be unique")) {
            _ = try await TestGateway.make(providers: [TestIdentityProvider(), TestIdentityProvider()])
        }
    }
}
