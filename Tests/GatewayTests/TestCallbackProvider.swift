import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// A provider written only against the public plugin contract, with its own config section, a server-to-server
/// callback and a status page: what an integrator's plugin looks like (`docs/writing-a-provider.md`). Callbacks are
/// JSON `{"id","type":"revoke"|"delete","sub"}` signed with `X-Test-Signature: hex(HMAC-SHA256(secret, body))`.
struct TestCallbackProvider: AssertionVerifier, ProviderEventReceiver, ProviderPages {
    static let id: ProviderID = "callback.example"
    let secret: String
    let records: any ProviderRecords
    let publicBaseURL: String
    let time: any TimeSource

    var id: ProviderID { Self.id }
    var isEnabled: Bool { true }

    func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        guard assertion["secret"] == secret, let subject = assertion["sub"], !subject.isEmpty else {
            throw CredentialRefusal(id, .signature, AuthError(.invalidIdpResponse, "bad test credential"))
        }
        return VerifiedIdentity(providerId: id, subject: subject, displayName: assertion["name"])
    }

    func receiveEvents(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderEventDelivery {
        let expected = Hex.encode(HMACSHA256.authenticate(key: Array(secret.utf8), message: request.body))
        guard let signature = request.header("x-test-signature"),
              constantTimeEquals(Array(signature.utf8), Array(expected.utf8)) else {
            throw CredentialRefusal(id, .signature, AuthError(.invalidIdpResponse, "bad callback signature"))
        }
        guard let body = request.jsonObject, let deliveryId = body["id"]?.stringValue,
              let subject = body["sub"]?.stringValue, let type = body["type"]?.stringValue else {
            throw CredentialRefusal(id, .format, AuthError(.invalidIdpResponse, "malformed callback"))
        }
        let event: AccountEvent = type == "delete" ? .deletionRequested(subject: subject) : .identityRevoked(subject: subject)
        let expiresAt = time.nowMilliseconds + 86_400_000
        return ProviderEventDelivery(events: [event], deliveryId: deliveryId, deliveryExpiresAt: expiresAt, label: type) {
            [records, publicBaseURL] outcomes in
            // Like Facebook's data deletion: a confirmation code and a status page that says what was done.
            let code = "c-" + deliveryId
            try await records.put(code, value: outcomes.map(\.rawValue).joined(separator: ","), expiresAt: expiresAt)
            return .json(["url": .string("\(publicBaseURL)/gatehouse/v1/providers/\(Self.id.rawValue)/status?code=\(code)"),
                          "confirmation_code": .string(code)])
        }
    }

    func page(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderHTTPReply {
        guard request.page == "status" else { throw ProviderPageError.notFound }
        guard let code = request.queryValue("code"), let status = try await records.value(for: code) else {
            return .text("unknown confirmation code", status: 404)
        }
        return .html("<p>Deletion request \(HTMLEscaping.escape(code)): \(HTMLEscaping.escape(status))</p>")
    }
}

/// Its factory: the `callbackExample` section holds `enabled` and `secretFile` (or `GATEHOUSE_CALLBACK_SECRET`).
struct TestCallbackProviderFactory: ProviderFactory {
    struct Settings: Sendable {
        var enabled: Bool
        var secret: String?
    }

    var section: String { "callbackExample" }

    func settings(from section: ConfigSection, environment: [String: String]) throws -> Settings {
        try section.requireKnownKeys(["enabled", "secretFile"])
        let settings = Settings(enabled: try section.bool("enabled") ?? false,
                                secret: try section.secret(fileKey: "secretFile", environmentVariable: "GATEHOUSE_CALLBACK_SECRET",
                                                           environment: environment))
        if settings.enabled && settings.secret == nil {
            throw ConfigurationError("callbackExample is enabled but has no secret: set callbackExample.secretFile")
        }
        return settings
    }

    func plugins(_ settings: Settings, context: ProviderContext) throws -> PluginSet {
        guard settings.enabled, let secret = settings.secret else { return PluginSet() }
        return PluginSet(providers: [TestCallbackProvider(secret: secret, records: context.records(for: TestCallbackProvider.id),
                                                          publicBaseURL: context.publicBaseURL, time: context.time)])
    }
}
