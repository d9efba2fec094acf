import AuthCore
import Foundation
import ProviderKit
import WireFormats

/// The data-deletion status page Facebook links the user to:
/// `GET /gatehouse/v1/providers/facebook.com/deletion?code=<confirmation code>`. It says what was deleted, from
/// the record written when the request was applied (kept 90 days, readable only with the code).
extension FacebookProvider: ProviderPages {
    static let statusPage = "deletion"
    static let statusRetentionMilliseconds: Int64 = 90 * 86_400_000

    public func page(_ request: ProviderHTTPRequest, context: RequestContext) async throws -> ProviderHTTPReply {
        guard request.page == Self.statusPage, isEnabled else { throw ProviderPageError.notFound }
        guard let code = request.queryValue("code"), !code.isEmpty, code.utf8.count <= 64,
              let text = try await records.value(for: Self.recordKey(code)),
              let status = DeletionStatus(json: text) else {
            return .text("Unknown confirmation code. Codes are kept for 90 days.", status: 404)
        }
        return .html(status.page(code: code))
    }

    /// Writes what the request did. A repeated delivery keeps the first record, which says what was actually
    /// deleted; it writes one only when the first answer was lost before its record was.
    func recordDeletion(code: String, outcome: AccountEventOutcome, requestedAt: Int64) async throws {
        let key = Self.recordKey(code)
        if outcome == .duplicate, try await records.value(for: key) != nil { return }
        let status = DeletionStatus(outcome: outcome, requestedAt: requestedAt)
        try await records.put(key, value: status.json, expiresAt: time.nowMilliseconds + Self.statusRetentionMilliseconds)
    }

    static func recordKey(_ code: String) -> String { "deletion:" + code }
}

/// One deletion request's result, as kept in the provider's records and shown on the status page.
struct DeletionStatus: Equatable {
    var outcome: AccountEventOutcome
    /// Seconds (the request's `issued_at`).
    var requestedAt: Int64

    init(outcome: AccountEventOutcome, requestedAt: Int64) {
        self.outcome = outcome
        self.requestedAt = requestedAt
    }

    init?(json text: String) {
        guard case .object(let o)? = try? JSONParser.parse(text),
              let outcome = o["outcome"]?.stringValue.flatMap(AccountEventOutcome.init(rawValue:)),
              let requestedAt = o["requestedAt"]?.intValue else { return nil }
        self.init(outcome: outcome, requestedAt: requestedAt)
    }

    var json: String {
        JSONSerializer.string(["outcome": .string(outcome.rawValue), "requestedAt": .int(requestedAt)])
    }

    /// What the gateway held and removed, in the user's terms.
    var summary: String {
        let identity = "the Facebook identity linked to your account (your app-scoped Facebook user ID, name, email "
            + "address and profile picture as received from Facebook)"
        switch outcome {
        case .userDeleted:
            return "Your account was deleted together with \(identity). It had no other way to sign in."
        case .unlinked, .unlinkedAndDisabled, .identityDeleted:
            return "We deleted \(identity), the name and picture your account had taken from Facebook (unless you had "
                + "changed them), and ended every session. Your account itself stays, because you can still sign in to "
                + "it another way, and so does its email address, which that way of signing in may use. Delete the "
                + "account from the app if you want it gone."
        case .unknownSubject:
            return "We held no data for this Facebook account: it was never used to sign in here, or its data had already been deleted."
        case .duplicate:
            return "This request had already been carried out; nothing linked to this Facebook account is left."
        }
    }

    func page(code: String) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(requestedAt)).ISO8601Format()
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>Data deletion request</title></head>
        <body><h1>Data deletion request</h1>
        <p>Confirmation code: <code>\(HTMLEscaping.escape(code))</code></p>
        <p>Requested: \(HTMLEscaping.escape(date))</p>
        <p>Status: completed</p>
        <p>\(HTMLEscaping.escape(summary))</p>
        </body></html>
        """
    }
}
