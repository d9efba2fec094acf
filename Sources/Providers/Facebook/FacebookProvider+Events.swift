import AuthCore
import Crypto
import ProviderKit
import WireFormats

/// Facebook's two callbacks (App settings → Facebook Login → Settings, and App settings → Advanced → Data
/// deletion request URL), both posted to `<gateway>/gatehouse/v1/providers/facebook.com/events` as a form with
/// `signed_request`. Their payloads look alike, so the registered URL says which one it is:
/// `?callback=deauthorize` or `?callback=deletion`.
///
/// Deauthorize (the user removed the app) becomes `AccountEvent.identityRevoked`; data deletion becomes
/// `AccountEvent.deletionRequested` and is answered `{url, confirmation_code}`, the URL being the status page
/// (`FacebookProvider+Pages.swift`). A delivery is applied once: repeats change nothing and get the same
/// confirmation code.
extension FacebookProvider: ProviderEventReceiver {
    enum Callback: String, CaseIterable {
        case deauthorize
        case deletion
    }

    public func receiveEvents(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderEventDelivery {
        try requireEnabled()
        guard let callback = request.queryValue("callback").flatMap(Callback.init(rawValue:)) else {
            throw AccessTokenChecks.refusal(.missing, "register the callback URL with ?callback=deauthorize or ?callback=deletion")
        }
        guard let signed = request.formFields?.first(where: { $0.0 == "signed_request" })?.1, !signed.isEmpty else {
            throw AccessTokenChecks.refusal(.missing, "signed_request is missing (a form field)")
        }
        let verified: SignedRequest
        do {
            verified = try SignedRequest.verify(signed, appSecret: configuration.appSecret ?? "", now: time.nowSeconds,
                                                maxAgeSeconds: configuration.callbackMaxAgeSeconds,
                                                clockSkewSeconds: configuration.clockSkewSeconds)
        } catch {
            throw error.refusal
        }
        // After this the request could no longer pass the age check, so its id may be forgotten.
        let forgetAt = (verified.issuedAt + configuration.callbackMaxAgeSeconds + configuration.clockSkewSeconds) * 1000
        let deliveryId = callback.rawValue + ":" + Hex.encode(SHA256.hash(signed))
        switch callback {
        case .deauthorize:
            return ProviderEventDelivery(events: [.identityRevoked(subject: verified.userId)], deliveryId: deliveryId,
                                         deliveryExpiresAt: forgetAt, label: "deauthorize")
        case .deletion:
            let code = confirmationCode(for: signed)
            return ProviderEventDelivery(events: [.deletionRequested(subject: verified.userId)], deliveryId: deliveryId,
                                         deliveryExpiresAt: forgetAt, label: "data-deletion") { [self] outcomes in
                try await recordDeletion(code: code, outcome: outcomes.first ?? .unknownSubject,
                                         requestedAt: verified.issuedAt)
                return .json(["url": .string(statusPageURL(code: code)), "confirmation_code": .string(code)])
            }
        }
    }

    /// The same request always gets the same code, so a repeated delivery is answered like the first. Keyed
    /// with the app secret: nobody without it can derive another request's code (and read its status page).
    func confirmationCode(for signedRequest: String) -> String {
        let mac = HMACSHA256.authenticate(key: Array((configuration.appSecret ?? "").utf8),
                                          message: Array(("facebook-deletion-confirmation:" + signedRequest).utf8))
        return Hex.encode(Array(mac.prefix(10)))
    }

    func statusPageURL(code: String) -> String {
        "\(publicBaseURL)/gatehouse/v1/providers/\(ProviderID.facebook.rawValue)/\(Self.statusPage)?code=\(code)"
    }
}
