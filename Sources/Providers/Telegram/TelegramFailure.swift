import AuthCore
import ProviderKit

/// The two signed-data forms, for messages.
enum TelegramForm: Sendable {
    case loginWidget
    case miniApp

    var label: String {
        switch self {
        case .loginWidget: "Telegram Login Widget data"
        case .miniApp: "Telegram Mini App init data"
        }
    }
}

/// Why Login Widget or Mini App data was refused, as the pure checks see it. Turned into what the client and the
/// log see in exactly one place, `refusal(_:)`, so each check has one wording and one logged name.
enum TelegramFailure: Error, Equatable {
    case malformed(String)
    case missingHash
    /// No configured bot accepts this form at all.
    case formNotAccepted
    /// The HMAC matches no configured bot's key.
    case hashMismatch
    /// Third-party data without the Ed25519 `signature`.
    case missingSignature
    /// The Ed25519 signature is not Telegram's for any allowed bot.
    case badSignature
    case missingAuthDate
    case stale(windowSeconds: Int64)
    case future
    case missingUser
    case replay

    func refusal(_ form: TelegramForm) -> CredentialRefusal {
        let what = form.label
        let (check, detail): (CredentialCheck, String) = switch self {
        case .malformed(let problem): (.format, "\(what) \(problem)")
        case .missingHash: (.format, "\(what) has no hash")
        case .formNotAccepted: (.audience, "\(what) is not accepted: no configured bot allows it")
        case .hashMismatch: (.signature, "\(what) hash does not match any configured bot")
        case .missingSignature: (.signature, "\(what) has no signature")
        case .badSignature: (.signature, "\(what) signature is not Telegram's for an allowed bot")
        case .missingAuthDate: (.format, "\(what) has no valid auth_date")
        case .stale(let window): (.age, "\(what) is older than \(Self.duration(window))")
        case .future: (.issuedAt, "\(what) has an auth_date in the future")
        case .missingUser: (.format, "\(what) has no valid user id")
        case .replay: (.replay, "Duplicate credential received. Please try again with a new credential.")
        }
        return CredentialRefusal(.telegram, check, AuthError(.invalidIdpResponse, detail))
    }

    /// "1 day", "2 hours", "10 minutes", "90 seconds": the largest whole unit.
    static func duration(_ seconds: Int64) -> String {
        let units: [(Int64, String)] = [(86_400, "day"), (3_600, "hour"), (60, "minute")]
        for (size, name) in units where seconds % size == 0 && seconds >= size {
            let count = seconds / size
            return count == 1 ? "1 \(name)" : "\(count) \(name)s"
        }
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}
