import AuthCore
import Storage
import WireFormats

/// The "improved email privacy" (email enumeration protection) switch: the config file gives the default,
/// an admin can change it at run time through the project config (`emailPrivacyConfig`), stored as a
/// setting so every instance sharing the database agrees.
struct EmailPrivacy: Sendable {
    static let settingKey = "emailPrivacy.enableImprovedEmailPrivacy"

    let store: any UserStore
    let defaultValue: Bool

    func isOn() async throws -> Bool {
        let stored = try await store.read { tx in try tx.setting(Self.settingKey) }
        return stored.map { $0 == "true" } ?? defaultValue
    }

    func set(_ value: Bool) async throws {
        try await store.write { tx in try tx.setSetting(Self.settingKey, value: value ? "true" : "false") }
    }
}

extension EmailPrivacy {
    /// Adds Firebase's `emailPrivacyConfig` to a rendered project config.
    func render(into config: inout JSONObject) async throws {
        config["emailPrivacyConfig"] = ["enableImprovedEmailPrivacy": .bool(try await isOn())]
    }
}
