import AuthCore
import Linking
import Storage
import WireFormats

/// Project settings that admins change at run time (Firebase's `projects/{p}/config`). They live in the store
/// so every instance sharing a database applies the same rules; the config file gives the defaults.
struct ProjectSettings: Sendable {
    static let allowDuplicateEmailsKey = "signIn.allowDuplicateEmails"

    let store: any UserStore
    let defaults: GatewayConfiguration

    struct Values: Sendable, Equatable {
        var allowDuplicateEmails: Bool
    }

    func current() async throws -> Values {
        let stored = try await store.read { tx in try tx.setting(Self.allowDuplicateEmailsKey) }
        return Values(allowDuplicateEmails: stored.map { $0 == "true" } ?? defaults.allowDuplicateEmails)
    }

    func linkingPolicy() async throws -> LinkingPolicy {
        LinkingPolicy(oneAccountPerEmail: !(try await current().allowDuplicateEmails))
    }

    func setAllowDuplicateEmails(_ value: Bool) async throws {
        try await store.write { tx in try tx.setSetting(Self.allowDuplicateEmailsKey, value: value ? "true" : "false") }
    }

    /// Firebase's config resource shape.
    func render(_ values: Values) -> JSONObject {
        ["name": .string("projects/\(defaults.projectId)/config"),
         "signIn": ["allowDuplicateEmails": .bool(values.allowDuplicateEmails)]]
    }
}
